import { ProgressBar } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import * as css from './reimbursement.css';

export interface QueuedFile {
  key: string;
  name: string;
  size: number;
  sent: number;
  /** alreadySent: the server took it at an earlier Send of the same request; it is not sent again. */
  state: 'waiting' | 'uploading' | 'checking' | 'done' | 'alreadySent' | 'failed';
  error?: string;
}

/** The files of a request with one progress bar each (bytes sent of the file's size) and where each one stands. */
export function UploadQueue({ files }: { files: readonly QueuedFile[] }) {
  const { t } = useTranslation('reimbursement');
  if (files.length === 0) return null;
  return (
    <ul className={css.queue} aria-label={t('queue.label')} data-testid="upload-queue">
      {files.map((f) => (
        <li key={f.key} className={css.queueItem}>
          <span className={css.fileName} title={f.name}>
            {f.name}
          </span>
          <ProgressBar aria-label={t('queue.progress', { name: f.name })} value={f.size === 0 ? 100 : Math.min(100, (f.sent / f.size) * 100)}>
            {({ percentage }) => (
              <div className={css.track}>
                <div className={css.fill} style={{ width: `${percentage ?? 0}%` }} />
              </div>
            )}
          </ProgressBar>
          <span className={f.state === 'failed' ? css.stateError : css.state} role={f.state === 'failed' ? 'alert' : undefined}>
            {f.state === 'failed' ? (f.error ?? t('queue.failed')) : t(`queue.${f.state}`)}
          </span>
        </li>
      ))}
    </ul>
  );
}
