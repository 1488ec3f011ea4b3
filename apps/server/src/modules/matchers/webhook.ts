import { z } from 'zod';
import { PermanentJobError, type JobHandler } from '../jobs/job-runner';

const payloadSchema = z.object({ url: z.url({ protocol: /^https?$/ }), body: z.record(z.string(), z.unknown()) });

/**
 * The handler of 'webhook' jobs: POSTs the JSON body to the URL within `timeoutMs`. A network
 * error, a timeout or a 5xx/408/429 answer fails the attempt (the job queue retries it with
 * back-off); any other 4xx is permanent. The response body is never stored.
 */
export function webhookJobHandler(timeoutMs: number): JobHandler {
  return async (payload) => {
    const parsed = payloadSchema.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('The stored webhook job is not valid.');
    const response = await fetch(parsed.data.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Vigil-Matcher/1' },
      body: JSON.stringify(parsed.data.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel().catch(() => undefined);
    if (response.ok) return;
    const message = `The webhook answered ${response.status} ${response.statusText}`.trim();
    if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
      throw new PermanentJobError(message);
    }
    throw new Error(message);
  };
}
