export {
  clearNotifications,
  closeNotification,
  getNotifications,
  notify,
  notifyServerMessage,
  NOTIFICATION_DURATION_MS,
  NOTIFICATION_GAP_PX,
  NOTIFICATION_WIDTH_PX,
  NOTIFICATION_THROTTLE_MS,
  NOTIFICATION_Z_INDEX,
  SERVER_MESSAGE_OFFSET_PX,
  notificationPositions,
  notificationTypes,
} from './store';
export type { NotificationInput, NotificationPosition, NotificationType, ShownNotification } from './store';
export { NotificationViewport } from './notification-viewport';
