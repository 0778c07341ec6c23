export { buildApp } from './app.js';
export type { NotificationsApp, NotificationsDeps } from './app.js';
export { loadConfig } from './config.js';
export type { NotificationsConfig } from './config.js';
