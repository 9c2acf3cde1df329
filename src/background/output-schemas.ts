import { z } from 'zod';

/** One job as `job_output`, `job_stop` and `job_list` describe it. */
export const jobSummaryOutput = z.object({
  id: z.string(),
  tool: z.string(),
  label: z.string().describe('The command or call, shortened.'),
  status: z.string(),
  runtimeMs: z.number(),
});

/** `job_list`'s data. */
export const jobListOutput = z.object({ jobs: z.array(jobSummaryOutput) });

/** Added to the output of a tool that can run in the background: such a call answers with a job id only. */
export const startedJobOutput = { jobId: z.string().optional().describe('The job started in the background, when the call asked for one.') };
