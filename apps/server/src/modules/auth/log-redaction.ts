import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Query parameters whose values are secrets (one-time codes, OpenID `code`/`state`, keys). */
const secretParam = /^(token|code|state|password|secret|key|api_key|access_token|id_token)$/i;
/** Path segments that are secrets: the one-time link token. */
const secretPath = /^(\/api\/activate\/)[^/?#]+/;

/** A request URL fit for a log: one-time tokens in the path and secret query values replaced by `***`. */
export function redactUrl(url: string): string {
  const [path = '', query] = url.split(/\?(.*)/s, 2);
  const safePath = path.replace(secretPath, '$1***');
  if (query === undefined) return safePath;
  const safeQuery = query
    .split('&')
    .map((pair) => {
      const index = pair.indexOf('=');
      const name = index < 0 ? pair : pair.slice(0, index);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // keep the raw name
      }
      return index >= 0 && secretParam.test(decoded) ? `${name}=***` : pair;
    })
    .join('&');
  return `${safePath}?${safeQuery}`;
}

/** Fastify's request serializer with the URL redacted; headers (cookies, Authorization) are never logged. */
function requestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Serializers for Fastify logger options: requests are logged with redacted URLs. */
export const secretSafeSerializers = { req: requestSerializer };

type LoggerOption = FastifyServerOptions['logger'];

/**
 * Logger options that can never write a session token, API key, one-time link or code: the
 * request serializer redacts URLs, whatever options the caller (main, a test) chose.
 */
export function withSecretsRedacted(logger: LoggerOption): LoggerOption {
  if (logger === false || logger === undefined) return logger;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...options.serializers, ...secretSafeSerializers } };
}
