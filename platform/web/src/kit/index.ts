export { CHART_ANIMATION_MS, ChartFigure, type ChartFigureProps } from './chart/ChartFigure';
export { chartGrid } from './chart/ChartFigure.css';
export { GAUGE_BANDS, gaugeBand } from './chart/gauge';
export { type ChartPeriod, chartPeriodLabel, usePeriodLabel } from './chart/periodLabel';
export { Button, ButtonGroup, type ButtonGroupProps, type ButtonProps, type ButtonSize, type ButtonVariant } from './components/Button';
export { ConfirmDialog, type ConfirmDialogProps } from './components/ConfirmDialog';
export { detailsList } from './components/DetailsList.css';
export { Dialog, type DialogProps } from './components/Dialog';
export { MenuButton, type MenuButtonItem, type MenuButtonProps } from './components/MenuButton';
export { LoadFailed, Message, type MessageKind, type MessageProps, reloadKeepingFocus, StaleNotice } from './components/Message';
export { Panel, type PanelProps } from './components/Panel';
export { TableScroll, type TableScrollProps } from './components/TableScroll';
export { type TabItem, Tabs, type TabsProps } from './components/Tabs';
export { Toolbar, type ToolbarProps, ToolbarSeparator } from './components/Toolbar';
export { CancelButton } from './form/CancelButton';
export { CheckboxField, RadioGroupField, type RadioGroupFieldProps, RadioOption } from './form/ChoiceFields';
export { DatePickerField, type DatePickerFieldProps, dateValueToIso } from './form/DatePickerField';
export { shouldShowError, visibleError } from './form/errorVisibility';
export { FilePickerField, type FilePickerFieldProps } from './form/FilePickerField';
export { Form, type FormProps, type FormSchema, type KitForm, useKitForm } from './form/Form';
export * as listBoxStyles from './form/listBox.css';
export {
  findLookupLabel,
  type LookupLabel,
  type LookupLabelItem,
  lookupDefault,
  lookupKey,
  lookupLabel,
  lookupNames,
  lookupOptions,
  type SelectOption,
  stateName,
  stateOptions,
  useLookupLabel,
  useStateName,
} from './form/lookupOptions';
export { MaskedInputField, type MaskedInputFieldProps } from './form/MaskedInputField';
export { NativeSelectField, type NativeSelectFieldProps, type NativeSelectOption } from './form/NativeSelectField';
export { NumberField, type NumberFieldProps } from './form/NumberField';
export { PasswordField, type PasswordFieldProps } from './form/PasswordField';
export {
  LookupSelectField,
  type LookupSelectFieldProps,
  SelectField,
  type SelectFieldProps,
  StateSelectField,
} from './form/SelectField';
export {
  EmailField,
  MaskedDateField,
  type MaskedDateFieldProps,
  MoneyField,
  PhoneField,
  SsnField,
  TextField,
  type TextFieldProps,
} from './form/TextFields';
export {
  type KeptEdits,
  keepEditsForTab,
  type UnsavedCheck,
  UnsavedContext,
  type UnsavedRegistry,
  useUnsavedChanges,
  useUnsavedScope,
  valuesText,
} from './form/unsaved';
export { type KitFieldProps, useKitField } from './form/useKitField';
export { exportFileName, exportTable } from './grid/cellValues';
export { DataGrid, type DataGridProps, VIRTUALIZE_AFTER } from './grid/DataGrid';
export { exportLocal, exportRemote, saveBlob } from './grid/download';
export {
  type GridState,
  initialGridState,
  KIT_DEFAULT_PAGE_SIZE,
  KIT_PAGE_SIZES,
  readGridState,
  writeGridState,
} from './grid/gridState';
export { DEFAULT_MAX_SELECT_ACROSS_PAGES, pageSelectionState, selectionReducer } from './grid/selection';
export type { ExportFetcher, ExportFormat, ExportRequest, FetchPage, GridColumn, PageRequest, SelectionMode, SortOrder } from './grid/types';
export { readChoice, useUrlChoice, writeChoice } from './grid/urlChoice';
export { readFilters, type UrlFilterValues, useUrlFilters, writeFilters } from './grid/urlFilters';
export { useDebouncedValue } from './grid/useDebouncedValue';
export { KitProvider, type KitProviderProps, type Notify, type NotifyKind, useKit } from './KitProvider';
export { visuallyHidden } from './visuallyHidden.css';
