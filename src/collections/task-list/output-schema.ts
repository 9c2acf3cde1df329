import { z } from 'zod';
import { TASK_STATUSES } from './task.js';

/** The `data` of every task list tool: the whole list after the call, for a user interface. */
export const taskListOutput = z.object({
  tasks: z.array(
    z.object({
      id: z.string(),
      subject: z.string(),
      description: z.string().optional(),
      status: z.enum(TASK_STATUSES),
      blockedBy: z.array(z.string()).describe('Ids of the tasks this one waits on.'),
    }),
  ),
});
