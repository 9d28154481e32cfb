export { ApiClient, type Download, type RequestOptions, type ToastKind } from './api/client';
export { ApiCallError, SessionEndedError } from './api/errors';
export * from './context';
export { type DialogSlotProps, defineWebPlugin, type KernelWebPlugin, type PageComponent, type WebRoute, type WebSlots } from './plugin';
export * as layoutCss from './shell/Layout.css';
export { RequireAccess } from './shell/RequireAccess';
export { encodeInvalidData } from './shell/routes';
export { startApp } from './shell/startApp';
export { dismissToast, showToast, TOAST_TIMEOUT_MS } from './store';
