export { ApiClient, type CallOptions, type Download, type RequestOptions, type ToastKind } from './api/client';
export { endpointRef } from './api/endpointRef';
export { ApiCallError, SessionEndedError } from './api/errors';
export { failureWords, loadFailure, saveConflict, useStaleSave } from './api/failures';
export { type Held, nextHeld, useHeldRecord } from './api/heldRecord';
export { SeenVersions, type VersionedRow } from './api/seenVersions';
export { newCreateKey, SubmissionKeys } from './api/submissionKeys';
export * from './context';
export {
  FIELD_SELECTOR,
  type FieldCandidate,
  firstFieldIn,
  firstTabbableField,
  focusInOrLost,
  type InitialWish,
  isFocusFree,
  type RecordShown,
  useFocusAfterRedraw,
  useKeepFocusInGroup,
  useSwapFocus,
} from './focus/swapFocus';
export {
  changeAppLanguage,
  ensurePluginNamespace,
  kitNamespace,
  type LazyNamespace,
  loadNamespaces,
  type NamespaceLoader,
  withPluginNamespace,
} from './i18n';
export { useNamespaces } from './i18n/useNamespaces';
export { useActingMemberId } from './impersonation/acting';
export {
  type Contribution,
  contribute,
  type DialogProps,
  defineExtensionPoint,
  defineWebPlugin,
  type ExtensionPoint,
  Extensions,
  type GatedMeta,
  type KernelWebPlugin,
  type NavigationGuard,
  type NavigationGuardContext,
  type NavigationGuardMeta,
  type NavigationGuardPreparation,
  type PageComponent,
  type SearchProvider,
  type SearchResult,
  type WebRoute,
} from './plugin';
export { BACKGROUND_POLL_IDLE_MS, pollWhileActive, userAwayMs } from './session/userActivity';
export { type CameFrom, cameFromState, hasInAppBack, readCameFrom, useGoBack } from './shell/cameFrom';
export * as compactTableCss from './shell/compactTable.css';
export { type ConfirmLeave, useConfirmLeave } from './shell/confirmLeave';
export {
  contributionsTo,
  ExtensionSlot,
  lazyContribution,
  loadContribution,
  type PrefetchContext,
  useContributions,
  visibleContributions,
} from './shell/extensions';
export * as layoutCss from './shell/Layout.css';
export { LANGUAGE_NAMES } from './shell/languageNames';
export { keepPageState } from './shell/leavePage';
export { PartBoundary } from './shell/PartBoundary';
export { RequireAccess } from './shell/RequireAccess';
export { encodeInvalidData } from './shell/routes';
export { startApp } from './shell/startApp';
export { dismissToast, showToast, TOAST_TIMEOUT_MS } from './store';
