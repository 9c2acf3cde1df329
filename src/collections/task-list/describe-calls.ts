/**
 * The task tools' calls in a person's words, for `describeToolCall`: `Plan 2 tasks: Read the
 * code, Fix the bug`, `Mark task #1 completed`.
 * @module
 */

const STATUS_WORDS: Readonly<Record<string, string>> = { pending: 'pending', in_progress: 'in progress', completed: 'completed' };

const taskRefs = (ids: readonly string[]) => ids.map((id) => `#${id}`).join(', ');

export function describeTaskAdd({ tasks }: { tasks: ReadonlyArray<{ subject: string }> }): string {
  if (tasks.length === 1) return `Plan a task: ${tasks[0]!.subject}`;
  return `Plan ${tasks.length} tasks: ${tasks.map((task) => task.subject).join(', ')}`;
}

export function describeTaskUpdate({ updates }: { updates: ReadonlyArray<{ id: string; status?: string; subject?: string }> }): string {
  if (updates.length === 1) {
    const { id, status, subject } = updates[0]!;
    if (subject !== undefined && status === undefined) return `Rename task #${id} to ${subject}`;
    if (status !== undefined) return `Mark task #${id} ${STATUS_WORDS[status] ?? status}`;
    return `Change task #${id}`;
  }
  const statuses = new Set(updates.map((update) => update.status));
  const [only] = statuses;
  const ids = taskRefs(updates.map((update) => update.id));
  return statuses.size === 1 && only !== undefined ? `Mark tasks ${ids} ${STATUS_WORDS[only] ?? only}` : `Change tasks ${ids}`;
}

export function describeTaskRemove({ ids }: { ids: readonly string[] }): string {
  return `Remove ${ids.length === 1 ? 'task' : 'tasks'} ${taskRefs(ids)}`;
}

export function describeTaskGet({ ids }: { ids?: readonly string[] }): string {
  return ids === undefined || ids.length === 0 ? 'Read the task list' : `Read ${ids.length === 1 ? 'task' : 'tasks'} ${taskRefs(ids)}`;
}
