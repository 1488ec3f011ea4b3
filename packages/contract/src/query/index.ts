/** The search query language, shared by the server and the console (docs/query-language.md). */
export * from './ast';
export * from './fields';
export * from './parse';
export * from './check';
export * from './values';
export * from './print';
export * from './hit-summary';
