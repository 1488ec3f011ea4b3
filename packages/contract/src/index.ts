export * from './resources';
export * from './permissions';
export * from './errors';
export * from './list';
export * from './health';
export * from './system-logs';
export * from './companies';
export * from './sso';
