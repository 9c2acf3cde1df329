/** The texts the model reads about background jobs. */

/** The `run_in_background` field added to tools that may run as jobs. */
export const RUN_IN_BACKGROUND_DESCRIPTION =
  'Start the call as a background job and get a job id at once instead of waiting (default false). ' +
  'Use it for dev servers, watchers and long builds; read the output with job_output, stop it with job_stop. ' +
  'You are told when a job finishes.';

/** `job_output`. */
export const JOB_OUTPUT_DESCRIPTION =
  "Shows a background job's status and the output that arrived since your last job_output call for it. " +
  'Pass tail to see the last lines instead, whatever was read before. A job keeps only its newest output; older output is dropped when it overflows.';

/** `job_stop`. */
export const JOB_STOP_DESCRIPTION =
  'Stops a running background job, with every process it started, and shows its unread output.';

/** `job_list`. */
export const JOB_LIST_DESCRIPTION = 'Lists the background jobs of this conversation: id, what runs, status and runtime.';

/** `job_id` field. */
export const JOB_ID_DESCRIPTION = 'The job id that the call with run_in_background returned, such as "3".';

/** `tail` field. */
export const TAIL_DESCRIPTION =
  'Show the last this many lines of the kept output instead of the new output (does not count as a read).';

/** The jobs collection's system-prompt text. */
export const JOBS_INSTRUCTIONS =
  'Tools that accept run_in_background can run as background jobs that outlive the turn. Use that for servers, watchers and long builds, ' +
  'not for quick commands. Check on jobs with job_output and job_list, stop them with job_stop when they are no longer needed.';
