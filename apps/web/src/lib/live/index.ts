export { LIVE_URL, LiveClient, liveClient, liveEventTypes, parseLiveEvent } from './live-client';
export type { LiveEvent, LiveEventType, LiveListener, LiveSource, LiveSourceFactory, LiveStatus } from './live-client';
export { useLiveEvents, useLiveStatus } from './use-live';
