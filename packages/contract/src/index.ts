// First, before any schema is built.
import './zod-setup';

export * from './resources';
export * from './permissions';
export * from './errors';
export * from './list';
export * from './health';
export * from './system-logs';
export * from './companies';
export * from './users';
export * from './roles';
export * from './sso';
export * from './mail';
export * from './auth';
export * from './events';
export * from './alerts';
export * from './incidents';
export * from './matchers';
export * from './ingest';
export * from './indicators';
export * from './graph';
export * from './widgets';
export * from './investigation';
export * from './endpoint';
export * from './endpoints/index';
