import {
  Button,
  ConfirmDialog,
  Dialog,
  MenuButton,
  Message,
  type MessageKind,
  NativeSelectField,
  Panel,
  Tabs,
  Toolbar,
  ToolbarSeparator,
} from '@portal/web/kit';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as css from './gallery.css';

/** Stands in for a server call, so the pending states can be seen. */
const PRETEND_WORK_MS = 800;

const MESSAGE_KINDS: readonly MessageKind[] = ['info', 'success', 'warning', 'error'];

// The copy lives in the gallery's own namespace (kit-gallery:gallery.*), not in the kit's, which every page loads.
export function ComponentsSection() {
  const { t } = useTranslation('kit-gallery');
  return (
    <div className={css.components}>
      <p className={`${css.description} ${css.wide}`}>{t('gallery.description')}</p>
      <ButtonsPanel />
      <DialogPanel />
      <ConfirmPanel />
      <MessagesPanel />
      <TabsPanel />
      <MenuPanel />
      <FilterPanel />
    </div>
  );
}

function usePretendWork() {
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return () =>
    new Promise<void>((resolve) => {
      timer.current = setTimeout(resolve, PRETEND_WORK_MS);
    });
}

function ButtonsPanel() {
  const { t } = useTranslation('kit-gallery');
  const work = usePretendWork();
  const [pressed, setPressed] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const press = (name: string) => () => setPressed(name);
  const save = async () => {
    setSaving(true);
    await work();
    setSaving(false);
    setPressed(t('gallery.buttons.saved'));
  };
  return (
    <Panel title={t('gallery.buttons.title')} description={t('gallery.buttons.description')}>
      <Toolbar aria-label={t('gallery.buttons.toolbar')}>
        <Button variant="primary" onPress={press(t('gallery.buttons.primary'))}>
          {t('gallery.buttons.primary')}
        </Button>
        <Button onPress={press(t('gallery.buttons.secondary'))}>{t('gallery.buttons.secondary')}</Button>
        <Button variant="danger" onPress={press(t('gallery.buttons.danger'))}>
          {t('gallery.buttons.danger')}
        </Button>
        <Button variant="link" onPress={press(t('gallery.buttons.link'))}>
          {t('gallery.buttons.link')}
        </Button>
        <ToolbarSeparator />
        <Button size="small" onPress={press(t('gallery.buttons.small'))}>
          {t('gallery.buttons.small')}
        </Button>
        <Button size="large" onPress={press(t('gallery.buttons.large'))}>
          {t('gallery.buttons.large')}
        </Button>
        <Button isDisabled>{t('gallery.buttons.disabled')}</Button>
        <ToolbarSeparator />
        <Button variant="primary" isPending={saving} pendingLabel={t('gallery.buttons.saving')} onPress={() => void save()}>
          {t('gallery.buttons.save')}
        </Button>
      </Toolbar>
      <p className={css.note} role="status">
        {pressed ? t('gallery.buttons.pressed', { name: pressed }) : ''}
      </p>
    </Panel>
  );
}

function DialogPanel() {
  const { t } = useTranslation('kit-gallery');
  const [open, setOpen] = useState(false);
  return (
    <Panel title={t('gallery.dialog.title')} description={t('gallery.dialog.description')}>
      <div>
        <Button onPress={() => setOpen(true)}>{t('gallery.dialog.open')}</Button>
      </div>
      <Dialog isOpen={open} onOpenChange={setOpen} title={t('gallery.dialog.heading')}>
        {(close) => (
          <>
            <p className={css.paragraph}>{t('gallery.dialog.body')}</p>
            <Message kind="info">{t('gallery.dialog.hint')}</Message>
            <div>
              <Button variant="primary" onPress={close}>
                {t('gallery.dialog.done')}
              </Button>
            </div>
          </>
        )}
      </Dialog>
    </Panel>
  );
}

function ConfirmPanel() {
  const { t } = useTranslation('kit-gallery');
  const work = usePretendWork();
  const [open, setOpen] = useState(false);
  const [deleted, setDeleted] = useState(false);
  return (
    <Panel title={t('gallery.confirm.title')} description={t('gallery.confirm.description')}>
      <div>
        {deleted ? (
          <Button onPress={() => setDeleted(false)}>{t('gallery.confirm.restore')}</Button>
        ) : (
          <Button variant="danger" onPress={() => setOpen(true)}>
            {t('gallery.confirm.open')}
          </Button>
        )}
      </div>
      {deleted && <Message kind="success">{t('gallery.confirm.done')}</Message>}
      <ConfirmDialog
        isOpen={open}
        onOpenChange={setOpen}
        title={t('gallery.confirm.heading')}
        message={t('gallery.confirm.message')}
        confirmLabel={t('gallery.confirm.confirm')}
        pendingLabel={t('gallery.confirm.pending')}
        destructive
        onConfirm={async () => {
          await work();
          setDeleted(true);
        }}
      />
    </Panel>
  );
}

function MessagesPanel() {
  const { t } = useTranslation('kit-gallery');
  return (
    <Panel title={t('gallery.messages.title')} description={t('gallery.messages.description')}>
      {MESSAGE_KINDS.map((kind) => (
        <Message key={kind} kind={kind} title={t(`gallery.messages.${kind}Title`)}>
          {t(`gallery.messages.${kind}`)}
        </Message>
      ))}
    </Panel>
  );
}

const TAB_IDS = ['overview', 'details', 'history'] as const;

function TabsPanel() {
  const { t } = useTranslation('kit-gallery');
  const [tab, setTab] = useState<string>('overview');
  return (
    <Panel
      title={t('gallery.tabs.title')}
      description={t('gallery.tabs.description')}
      actions={
        <Button size="small" isDisabled={tab === 'overview'} onPress={() => setTab('overview')}>
          {t('gallery.tabs.first')}
        </Button>
      }
    >
      <Tabs
        aria-label={t('gallery.tabs.label')}
        selectedKey={tab}
        onSelectionChange={setTab}
        items={TAB_IDS.map((id) => ({
          id,
          label: t(`gallery.tabs.${id}`),
          content: <p className={css.paragraph}>{t(`gallery.tabs.${id}Body`)}</p>,
        }))}
      />
    </Panel>
  );
}

const MENU_ITEMS = ['print', 'download', 'share'] as const;

function MenuPanel() {
  const { t } = useTranslation('kit-gallery');
  const [chosen, setChosen] = useState<string | null>(null);
  return (
    <Panel title={t('gallery.menu.title')} description={t('gallery.menu.description')}>
      <div>
        <MenuButton
          label={t('gallery.menu.label')}
          items={MENU_ITEMS.map((id) => ({ id, label: t(`gallery.menu.${id}`) }))}
          onAction={(id) => setChosen(t(`gallery.menu.${id}`))}
        />
      </div>
      <p className={css.note} role="status">
        {chosen ? t('gallery.menu.chosen', { item: chosen }) : ''}
      </p>
    </Panel>
  );
}

const ROW_CHOICES = [10, 20, 50] as const;

function FilterPanel() {
  const { t } = useTranslation('kit-gallery');
  const [rows, setRows] = useState<number>(20);
  return (
    <Panel title={t('gallery.filter.title')} description={t('gallery.filter.description')}>
      <NativeSelectField label={t('gallery.filter.label')} value={rows} options={ROW_CHOICES.map((n) => ({ value: n, label: String(n) }))} onChange={setRows} />
      <p className={css.note} role="status">
        {t('gallery.filter.chosen', { rows, next: rows + 10 })}
      </p>
    </Panel>
  );
}
