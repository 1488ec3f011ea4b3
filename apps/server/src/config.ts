import path from 'node:path';
import { z } from 'zod';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const configSchema = z.object({
  PORT: z.coerce
    .number({ message: 'must be a port number from 0 to 65535' })
    .int('must be a port number from 0 to 65535')
    .min(0, 'must be a port number from 0 to 65535')
    .max(65535, 'must be a port number from 0 to 65535')
    .default(8080),
  HOST: z.string().trim().min(1, 'must not be empty').default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1, 'must not be empty').default('./data'),
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  LOG_LEVEL: z.enum(logLevels, { message: `must be one of ${logLevels.join(', ')}` }).default('info'),
  PUBLIC_URL: z.url({ message: 'must be an absolute http(s) URL' }).optional(),
  DATABASE_POOL_SIZE: z.coerce
    .number({ message: 'must be a whole number from 1 to 200' })
    .int('must be a whole number from 1 to 200')
    .min(1, 'must be a whole number from 1 to 200')
    .max(200, 'must be a whole number from 1 to 200')
    .default(10),
  VIGIL_ADMIN_USERNAME: z.string().trim().min(1).max(150).optional(),
  VIGIL_ADMIN_PASSWORD: z.string().min(1).max(200).optional(),
  VIGIL_PROVIDER_NAME: z.string().trim().min(1).max(200).default('Vigil'),
  /** Where the built web app lives; the server serves it with an SPA fallback. */
  WEB_DIST_DIR: z.string().trim().min(1).optional(),
  /** Cookies get the Secure flag; on by default when PUBLIC_URL is https. */
  COOKIE_SECURE: z.enum(['true', 'false'], { message: 'must be true or false' }).optional(),
  /** Whether ingest makes and updates assets from the events (a provider with an inventory of its own turns it off). */
  ASSET_DISCOVERY: z.enum(['on', 'off'], { message: 'must be on or off' }).default('on'),
  /** Shortest password the policy accepts. */
  PASSWORD_MIN_LENGTH: z.coerce
    .number({ message: 'must be a whole number from 8 to 128' })
    .int('must be a whole number from 8 to 128')
    .min(8, 'must be a whole number from 8 to 128')
    .max(128, 'must be a whole number from 8 to 128')
    .default(10),
  /** Days after which a password expires; 0 means never. */
  PASSWORD_MAX_AGE_DAYS: z.coerce
    .number({ message: 'must be a whole number from 0 to 3650' })
    .int('must be a whole number from 0 to 3650')
    .min(0, 'must be a whole number from 0 to 3650')
    .max(3650, 'must be a whole number from 0 to 3650')
    .default(0),
  /** Consecutive failed sign-ins that lock an account. */
  LOGIN_MAX_FAILURES: z.coerce
    .number({ message: 'must be a whole number from 1 to 100' })
    .int('must be a whole number from 1 to 100')
    .min(1, 'must be a whole number from 1 to 100')
    .max(100, 'must be a whole number from 1 to 100')
    .default(5),
  /** How long a locked account stays locked. */
  LOGIN_LOCKOUT_MINUTES: z.coerce
    .number({ message: 'must be a whole number from 1 to 10080' })
    .int('must be a whole number from 1 to 10080')
    .min(1, 'must be a whole number from 1 to 10080')
    .max(10080, 'must be a whole number from 1 to 10080')
    .default(15),
  /** Failed sign-ins from one address within 15 minutes before it is refused. */
  LOGIN_IP_MAX_FAILURES: z.coerce
    .number({ message: 'must be a whole number from 1 to 10000' })
    .int('must be a whole number from 1 to 10000')
    .min(1, 'must be a whole number from 1 to 10000')
    .max(10000, 'must be a whole number from 1 to 10000')
    .default(20),
  /** Lifetime of an activation or password-reset link. */
  ACTIVATION_TTL_HOURS: z.coerce
    .number({ message: 'must be a whole number from 1 to 8760' })
    .int('must be a whole number from 1 to 8760')
    .min(1, 'must be a whole number from 1 to 8760')
    .max(8760, 'must be a whole number from 1 to 8760')
    .default(72),
  /** Outgoing mail relay; without it mail jobs fail with a last_error saying so. */
  SMTP_HOST: z.string().trim().min(1).max(255).optional(),
  SMTP_PORT: z.coerce
    .number({ message: 'must be a port number from 1 to 65535' })
    .int('must be a port number from 1 to 65535')
    .min(1, 'must be a port number from 1 to 65535')
    .max(65535, 'must be a port number from 1 to 65535')
    .default(587),
  /** true: TLS from the first byte (port 465). false: plain, upgraded with STARTTLS when offered. */
  SMTP_SECURE: z.enum(['true', 'false'], { message: 'must be true or false' }).default('false'),
  SMTP_USER: z.string().max(255).optional(),
  SMTP_PASSWORD: z.string().max(1000).optional(),
  MAIL_FROM: z
    .string()
    .trim()
    .max(320)
    .regex(
      /^(?:[^<>\r\n]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/,
      'must be an address, e.g. Vigil <no-reply@example.com>',
    )
    .default('Vigil <no-reply@localhost>'),
  /** How long who-is-calling is remembered in memory; 0 reads the session from the database every time. */
  AUTH_CACHE_SECONDS: z.coerce
    .number({ message: 'must be a whole number of seconds from 0 to 60' })
    .int('must be a whole number of seconds from 0 to 60')
    .min(0, 'must be a whole number of seconds from 0 to 60')
    .max(60, 'must be a whole number of seconds from 0 to 60')
    .default(5),
  /** How often the job runner looks for due jobs; 0 turns the runner off in this process. */
  JOBS_POLL_MS: z.coerce
    .number({ message: 'must be a whole number of milliseconds from 0 to 3600000' })
    .int('must be a whole number of milliseconds from 0 to 3600000')
    .min(0, 'must be a whole number of milliseconds from 0 to 3600000')
    .max(3_600_000, 'must be a whole number of milliseconds from 0 to 3600000')
    .default(1000),
  /** Largest ingest request body in bytes; larger ones are answered 413. */
  INGEST_MAX_BODY_BYTES: z.coerce
    .number({ message: 'must be a whole number of bytes from 1024 to 1073741824' })
    .int('must be a whole number of bytes from 1024 to 1073741824')
    .min(1024, 'must be a whole number of bytes from 1024 to 1073741824')
    .max(1_073_741_824, 'must be a whole number of bytes from 1024 to 1073741824')
    .default(20 * 1024 * 1024),
  /** Longest line of a JSON-lines ingest body in bytes; longer lines are refused with a reason. */
  INGEST_MAX_LINE_BYTES: z.coerce
    .number({ message: 'must be a whole number of bytes from 256 to 67108864' })
    .int('must be a whole number of bytes from 256 to 67108864')
    .min(256, 'must be a whole number of bytes from 256 to 67108864')
    .max(67_108_864, 'must be a whole number of bytes from 256 to 67108864')
    .default(1024 * 1024),
  /** An open alert with the same deduplication key seen within this many minutes absorbs a new detection. */
  ALERT_DEDUP_WINDOW_MINUTES: z.coerce
    .number({ message: 'must be a whole number of minutes from 1 to 10080' })
    .int('must be a whole number of minutes from 1 to 10080')
    .min(1, 'must be a whole number of minutes from 1 to 10080')
    .max(10080, 'must be a whole number of minutes from 1 to 10080')
    .default(60),
  /** Seconds between heartbeat comments on live-update streams. */
  LIVE_HEARTBEAT_SECONDS: z.coerce
    .number({ message: 'must be a whole number of seconds from 1 to 300' })
    .int('must be a whole number of seconds from 1 to 300')
    .min(1, 'must be a whole number of seconds from 1 to 300')
    .max(300, 'must be a whole number of seconds from 1 to 300')
    .default(20),
  /** How long a matcher's webhook may take to answer before the attempt counts as failed. */
  WEBHOOK_TIMEOUT_MS: z.coerce
    .number({ message: 'must be a whole number of milliseconds from 100 to 60000' })
    .int('must be a whole number of milliseconds from 100 to 60000')
    .min(100, 'must be a whole number of milliseconds from 100 to 60000')
    .max(60_000, 'must be a whole number of milliseconds from 100 to 60000')
    .default(5000),
  /** Whether matchers' webhooks may call loopback, private and link-local addresses (off: refused). */
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: z.enum(['true', 'false'], { message: 'must be true or false' }).default('false'),
  /** Days of stored events a new indicator is searched for (retro-hunt); 0 turns the retro-hunt off. */
  RETRO_HUNT_DAYS: z.coerce
    .number({ message: 'must be a whole number of days from 0 to 3650' })
    .int('must be a whole number of days from 0 to 3650')
    .min(0, 'must be a whole number of days from 0 to 3650')
    .max(3650, 'must be a whole number of days from 0 to 3650')
    .default(30),
  /** 1 (or true): load the demo data after start when the database is a fresh installation. */
  VIGIL_DEMO: z.enum(['1', '0', 'true', 'false'], { message: 'must be 1 or 0' }).default('0'),
  VIGIL_DEMO_SCALE: z
    .enum(['small', 'default', 'large'], { message: 'must be one of small, default, large' })
    .default('default'),
  /** Seed of the demo's generator: the same seed gives the same data. */
  VIGIL_DEMO_SEED: z.coerce
    .number({ message: 'must be a whole number from 0 to 4294967295' })
    .int('must be a whole number from 0 to 4294967295')
    .min(0, 'must be a whole number from 0 to 4294967295')
    .max(4_294_967_295, 'must be a whole number from 0 to 4294967295')
    .optional(),
  /** one-time: demo accounts change their password at the first sign-in; permanent: they keep it (tests). */
  VIGIL_DEMO_PASSWORDS: z
    .enum(['one-time', 'permanent'], { message: 'must be one-time or permanent' })
    .default('one-time'),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: (typeof logLevels)[number];
  publicUrl: string | undefined;
  databasePoolSize: number;
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  providerName: string;
  webDistDir: string;
  cookieSecure: boolean;
  /** ASSET_DISCOVERY=on: the ingest pipeline finds assets in the events. */
  assetDiscovery: boolean;
  passwordMinLength: number;
  /** 0: passwords never expire. */
  passwordMaxAgeDays: number;
  loginMaxFailures: number;
  loginLockoutMinutes: number;
  loginIpMaxFailures: number;
  activationTtlHours: number;
  /** Outgoing mail; `host` undefined means mail is not configured. */
  smtp: {
    host: string | undefined;
    port: number;
    secure: boolean;
    user: string | undefined;
    password: string | undefined;
  };
  mailFrom: string;
  /** Poll interval of the job runner; 0 means this process runs no jobs by itself. */
  jobsPollMs: number;
  authCacheSeconds: number;
  alertDedupWindowMinutes: number;
  liveHeartbeatSeconds: number;
  webhookTimeoutMs: number;
  webhookAllowPrivateAddresses: boolean;
  ingestMaxBodyBytes: number;
  ingestMaxLineBytes: number;
  /** Days of stored events searched for new indicators; 0: no retro-hunt. */
  retroHuntDays: number;
  /** Demo data loaded after start (VIGIL_DEMO*). */
  demo: {
    enabled: boolean;
    scale: 'small' | 'default' | 'large';
    seed: number | undefined;
    passwords: 'one-time' | 'permanent';
  };
}

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const defaultWebDist = path.resolve(import.meta.dirname, '../../web/dist');

/** Reads and validates the configuration from environment variables. Empty values count as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const variable = String(issue.path[0] ?? 'environment');
        return `${variable}=${JSON.stringify(raw[variable] ?? '')}: ${issue.message}`;
      }),
    );
  }
  const c = parsed.data;
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: path.resolve(c.DATA_DIR),
    databaseUrl: c.DATABASE_URL,
    logLevel: c.LOG_LEVEL,
    publicUrl: c.PUBLIC_URL?.replace(/\/+$/, ''),
    databasePoolSize: c.DATABASE_POOL_SIZE,
    adminUsername: c.VIGIL_ADMIN_USERNAME,
    adminPassword: c.VIGIL_ADMIN_PASSWORD,
    providerName: c.VIGIL_PROVIDER_NAME,
    webDistDir: c.WEB_DIST_DIR ? path.resolve(c.WEB_DIST_DIR) : defaultWebDist,
    cookieSecure: c.COOKIE_SECURE ? c.COOKIE_SECURE === 'true' : (c.PUBLIC_URL?.startsWith('https:') ?? false),
    assetDiscovery: c.ASSET_DISCOVERY === 'on',
    passwordMinLength: c.PASSWORD_MIN_LENGTH,
    passwordMaxAgeDays: c.PASSWORD_MAX_AGE_DAYS,
    loginMaxFailures: c.LOGIN_MAX_FAILURES,
    loginLockoutMinutes: c.LOGIN_LOCKOUT_MINUTES,
    loginIpMaxFailures: c.LOGIN_IP_MAX_FAILURES,
    activationTtlHours: c.ACTIVATION_TTL_HOURS,
    smtp: {
      host: c.SMTP_HOST,
      port: c.SMTP_PORT,
      secure: c.SMTP_SECURE === 'true',
      user: c.SMTP_USER,
      password: c.SMTP_PASSWORD,
    },
    mailFrom: c.MAIL_FROM,
    jobsPollMs: c.JOBS_POLL_MS,
    authCacheSeconds: c.AUTH_CACHE_SECONDS,
    alertDedupWindowMinutes: c.ALERT_DEDUP_WINDOW_MINUTES,
    liveHeartbeatSeconds: c.LIVE_HEARTBEAT_SECONDS,
    webhookTimeoutMs: c.WEBHOOK_TIMEOUT_MS,
    webhookAllowPrivateAddresses: c.WEBHOOK_ALLOW_PRIVATE_ADDRESSES === 'true',
    ingestMaxBodyBytes: c.INGEST_MAX_BODY_BYTES,
    ingestMaxLineBytes: c.INGEST_MAX_LINE_BYTES,
    retroHuntDays: c.RETRO_HUNT_DAYS,
    demo: {
      enabled: c.VIGIL_DEMO === '1' || c.VIGIL_DEMO === 'true',
      scale: c.VIGIL_DEMO_SCALE,
      seed: c.VIGIL_DEMO_SEED,
      passwords: c.VIGIL_DEMO_PASSWORDS,
    },
  };
}
