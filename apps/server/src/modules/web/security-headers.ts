import type { FastifyInstance } from 'fastify';

/**
 * The policy every HTML page of the console is served under. The console's scripts, styles, fonts
 * and images come from its own origin; it talks only to its own API; no other site may frame it.
 * Styles may be inline because the component library writes its theme and responsive rules into
 * `<style>` elements at run time (style changes never run code). `data:` images and fonts are the
 * library's inline icons and the bundled fonts. A mail's HTML is shown in a sandboxed `srcdoc` frame
 * whose own policy loads nothing at all.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Security headers on every answer: no MIME sniffing, no framing by another site (the old header
 * too, for browsers without `frame-ancestors`), no address of a page sent to other sites; and on
 * HTML, the console's Content-Security-Policy unless the route set a stricter one of its own.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'same-origin');
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html') && !reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', CONSOLE_CONTENT_SECURITY_POLICY);
    }
    return payload;
  });
}
