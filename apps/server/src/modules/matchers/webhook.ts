import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { z } from 'zod';
import { PermanentJobError, type JobHandler } from '../jobs/job-runner';
import { guardedLookup, isPrivateAddress, PrivateAddressError, urlHost } from './network-guard';

const payloadSchema = z.object({ url: z.url({ protocol: /^https?$/ }), body: z.record(z.string(), z.unknown()) });

export interface WebhookOptions {
  timeoutMs: number;
  /** Whether webhooks may reach loopback, private and other local addresses. */
  allowPrivateAddresses: boolean;
}

function post(url: URL, body: string, options: WebhookOptions): Promise<IncomingMessage> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Vigil-Matcher/1',
        },
        timeout: options.timeoutMs,
        ...(options.allowPrivateAddresses ? {} : { lookup: guardedLookup }),
      },
      resolve,
    );
    outgoing.on('timeout', () =>
      outgoing.destroy(new Error(`The webhook did not answer within ${options.timeoutMs} ms`)),
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * The handler of 'webhook' jobs: POSTs the JSON body to the URL within `timeoutMs`. A network
 * error, a timeout or a 5xx/408/429 answer fails the attempt (the job queue retries it with
 * back-off); any other 4xx is permanent, and so is a URL at a refused address (loopback, private,
 * link-local… unless allowed). Redirects are not followed; the response body is never stored.
 */
export function webhookJobHandler(options: WebhookOptions): JobHandler {
  return async (payload) => {
    const parsed = payloadSchema.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('The stored webhook job is not valid.');
    const url = new URL(parsed.data.url);
    const host = urlHost(parsed.data.url) ?? '';
    // A host written as an address is connected to without a lookup, so it is checked here.
    if (!options.allowPrivateAddresses && isPrivateAddress(host)) {
      throw new PermanentJobError(new PrivateAddressError(host, host).message);
    }
    let response: IncomingMessage;
    try {
      response = await post(url, JSON.stringify(parsed.data.body), options);
    } catch (error) {
      if (error instanceof PrivateAddressError) throw new PermanentJobError(error.message);
      throw error;
    }
    response.resume();
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return;
    const message = `The webhook answered ${status} ${response.statusMessage ?? ''}`.trim();
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) throw new PermanentJobError(message);
    throw new Error(message);
  };
}
