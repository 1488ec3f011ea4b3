export * from './paths';
export * from './session-store';
export * from './actions';
