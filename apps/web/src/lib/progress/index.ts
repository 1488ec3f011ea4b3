export { PROGRESS_END_DELAY_MS, isProgressActive, progressRequestEnded, progressRequestStarted } from './store';
export { ProgressBar } from './progress-bar';
