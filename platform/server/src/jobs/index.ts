export { pruneKeyTable, scheduleHousekeeping } from './housekeeping';
export { createJobQueue, JOB_STOP_TIMEOUT_MS, type JobQueueOptions, PgBossJobQueue } from './pg-boss-queue';
export type { DefineOptions, JobHandler, JobInfo, JobLogger, JobQueue, SendOptions } from './queue';
export { defineSessionPrune, pruneSessions, SESSION_PRUNE_CRON, SESSION_PRUNE_JOB, SESSION_RETENTION_DAYS } from './session-prune';
export { defineThrottlePrune, THROTTLE_PRUNE_CRON, THROTTLE_PRUNE_JOB, THROTTLE_RETENTION_SECONDS } from './throttle-prune';
