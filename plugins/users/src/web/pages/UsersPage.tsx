import { cameFromState, layoutCss, useApi, useKernel } from '@portal/web';
import { Button, DataGrid, type GridColumn, listBoxStyles, type PageRequest, useUrlFilters } from '@portal/web/kit';
import { type FormEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { Button as AriaButton, Input, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { userDetailPath } from '../../access';
import { USER_FILTER_ATTRIBUTES, type User, type UserFilterAttribute, UsersApi } from '../../contract';
import { loginStatus, USER_PAGE_SIZE } from '../../rules';
import * as css from '../components/users.css';

const SORTABLE = new Set(['UserName', 'FirstName', 'LastName']);
/** The search in the address (/users?by=LastName&q=ann): the attribute searched and the text; absent, the default. */
const SEARCH_DEFAULTS = { by: 'UserName', q: '' };
const attributeOf = (by: string): UserFilterAttribute =>
  (USER_FILTER_ATTRIBUTES as readonly string[]).includes(by) ? (by as UserFilterAttribute) : 'UserName';

/** /users: everyone with a login, 15 per page, searched by one attribute at a time. */
export default function UsersPage() {
  const api = useApi();
  const { t } = useTranslation('users');
  const navigate = useNavigate();
  // The members list (statuses Members, Pending, Terminated, All) is the support plugin's, where it is enabled.
  const hasMembersList = useKernel().plugins.some((p) => p.id === 'support');
  // The submitted search lives in the address (Back from a user, a reload or a shared link keep it); the fields are
  // a draft until Search, put back to the address's search when it changes under them (Back, the menu's /users).
  const [searched, setSearched] = useUrlFilters(SEARCH_DEFAULTS);
  const searchedAttribute = attributeOf(searched.by);
  const [attribute, setAttribute] = useState<UserFilterAttribute>(searchedAttribute);
  const [text, setText] = useState(searched.q);
  useEffect(() => {
    setAttribute(searchedAttribute);
    setText(searched.q);
  }, [searchedAttribute, searched.q]);
  const filter = useMemo<Partial<Record<UserFilterAttribute, string>>>(
    () => (searched.q.trim() ? { [searchedAttribute]: searched.q.trim() } : {}),
    [searchedAttribute, searched.q],
  );

  const search = (e: FormEvent) => {
    e.preventDefault();
    // Replaces the history entry, as the grid's paging does; the grid goes back to its first page.
    setSearched({ by: attribute, q: text.trim() });
  };

  const fetchPage = useCallback(
    (req: PageRequest) =>
      api.call(
        UsersApi.get,
        {
          query: {
            pageSize: req.pageSize,
            pageNum: req.pageIndex + 1,
            sort: (req.sortColumn && SORTABLE.has(req.sortColumn) ? req.sortColumn : 'UserName') as 'UserName',
            sortDir: req.sortOrder,
            filter: Object.keys(filter).length ? JSON.stringify(filter) : undefined,
          },
        },
        // A failed page is said in the grid, in the server's words, with its Try again: no toast says it again.
        { skipLoadingBar: true, notify: false },
      ),
    [api, filter],
  );

  // A member's page offers the way back to this list as it is now (its query holds the filters, sort and page).
  const location = useLocation();
  const place = useMemo(() => ({ pathname: location.pathname, search: location.search }), [location.pathname, location.search]);
  const columns = useMemo<GridColumn<User>[]>(
    () => [
      {
        id: 'UserName',
        header: t('fields.UserName'),
        accessor: (u) => u.UserName,
        cell: (u) => (
          <Link className={css.link} to={userDetailPath(u.Id)} state={cameFromState(place, 'users:detail.back')}>
            {u.UserName}
          </Link>
        ),
        sortable: true,
        hideable: false,
      },
      { id: 'FirstName', header: t('fields.FirstName'), accessor: (u) => u.FirstName, sortable: true },
      { id: 'LastName', header: t('fields.LastName'), accessor: (u) => u.LastName, sortable: true },
      { id: 'CompanyName', header: t('fields.CompanyName'), accessor: (u) => u.CompanyName ?? '' },
      { id: 'Kind', header: t('fields.Kind'), accessor: (u) => (u.IsMember ? t('kind.member') : t('kind.staff')) },
      {
        id: 'IsActive',
        header: t('fields.Status'),
        accessor: (u) => ({ active: t('status.active'), inactive: t('status.inactive'), closed: t('status.closed') })[loginStatus(u)],
      },
    ],
    [t, place],
  );

  return (
    <div className={`${layoutCss.card} ${css.stack}`}>
      <p>{t('intro')}</p>
      {hasMembersList && (
        <p>
          <Link className={css.link} to="/support-members">
            {t('membersList')}
          </Link>
        </p>
      )}
      <form className={css.row} onSubmit={search} aria-label={t('search.label')}>
        <Select className={css.searchField} selectedKey={attribute} onSelectionChange={(key) => setAttribute(String(key) as UserFilterAttribute)}>
          <Label>{t('search.attribute')}</Label>
          <AriaButton className={css.input}>
            <SelectValue />
            <span aria-hidden="true"> ▾</span>
          </AriaButton>
          <Popover className={listBoxStyles.popover}>
            <ListBox className={listBoxStyles.listBox}>
              {USER_FILTER_ATTRIBUTES.map((a) => (
                <ListBoxItem key={a} id={a} className={listBoxStyles.option}>
                  {t(`fields.${a}`)}
                </ListBoxItem>
              ))}
            </ListBox>
          </Popover>
        </Select>
        {/* The server takes at most 100 characters of a filter's text. */}
        <TextField className={css.searchField} value={text} onChange={setText} maxLength={100}>
          <Label>{t('search.text')}</Label>
          <Input className={css.input} />
        </TextField>
        <Button type="submit">{t('search.submit')}</Button>
        <Button variant="primary" onPress={() => navigate(userDetailPath('new'))}>
          {t('actions.add')}
        </Button>
      </form>
      <DataGrid<User>
        label={t('list.label')}
        columns={columns}
        getRowId={(u) => u.Id}
        getRowLabel={(u) => u.UserName}
        fetchPage={fetchPage}
        queryKey={['users', 'list', filter]}
        sortable
        pageSizes={[USER_PAGE_SIZE]}
        defaultPageSize={USER_PAGE_SIZE}
        defaultSort={{ column: 'UserName', order: 'asc' }}
        stateKey="users"
      />
    </div>
  );
}
