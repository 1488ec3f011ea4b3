import { z } from 'zod';

/**
 * In a browser the console runs under a Content-Security-Policy without 'unsafe-eval'. Zod would
 * probe there, as its first schema is built, whether it may compile parsers with `new Function`,
 * and the browser reports the probe as a policy violation; it parses just as well without. The
 * server keeps compiled parsers. Imported first by the index, before any schema is built.
 */
if ('document' in globalThis) z.config({ jitless: true });
