import type { ListAnswer, SystemLog, SystemLogFilters } from '@vigil/contract';
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format-date';
import { fetchSystemLogPage, firstSystemLogPage, pageOf } from '../api/system-logs';

interface SystemLogPageProps {
  /** Called when the server says the session is gone (401), so the app can show the sign-in form. */
  onSessionEnded: () => void;
}

/** A page of the log and the link it came from (the link carries its page number). */
interface Shown {
  link: string;
  answer: ListAnswer<SystemLog>;
}

/** The last page shown stays on screen while the next one loads or if it fails. */
type Load =
  | { status: 'loading'; shown: Shown | null }
  | { status: 'ready'; shown: Shown }
  | { status: 'failed'; shown: Shown | null; message: string };

/** The audit log: who did what to which object, newest first, a page at a time. */
export function SystemLogPage({ onSessionEnded }: SystemLogPageProps) {
  const [link, setLink] = useState(firstSystemLogPage);
  const [filters, setFilters] = useState<SystemLogFilters>({});
  const [searchText, setSearchText] = useState('');
  const [reloads, setReloads] = useState(0);
  const [load, setLoad] = useState<Load>({ status: 'loading', shown: null });

  useEffect(() => {
    let current = true;
    setLoad((previous) => ({ status: 'loading', shown: previous.shown }));
    fetchSystemLogPage(link, filters).then(
      (answer) => {
        if (current) setLoad({ status: 'ready', shown: { link, answer } });
      },
      (error: unknown) => {
        if (!current) return;
        if (error instanceof ApiError && error.status === 401) {
          onSessionEnded();
          return;
        }
        const message = error instanceof Error ? error.message : 'The system log could not be loaded.';
        setLoad((previous) => ({ status: 'failed', shown: previous.shown, message }));
      },
    );
    return () => {
      current = false;
    };
  }, [link, filters, reloads, onSessionEnded]);

  function handleSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const search = searchText.trim();
    setFilters(search === '' ? {} : { search });
    setLink(firstSystemLogPage());
  }

  const answer = load.shown?.answer ?? null;
  const { page, pageSize } = pageOf(load.shown?.link ?? link);
  const firstShown = answer && answer.results.length > 0 ? (page - 1) * pageSize + 1 : 0;
  const lastShown = answer ? firstShown + Math.max(answer.results.length - 1, 0) : 0;

  return (
    <section className="panel" aria-labelledby="system-log-title">
      <div className="panel__header">
        <div>
          <h1 className="panel__title" id="system-log-title">
            System log
          </h1>
          <p className="panel__subtitle">Sign-ins, sign-outs and every change made in the console.</p>
        </div>
        <form className="search" role="search" onSubmit={handleSearch}>
          <input
            className="field__input search__input"
            type="search"
            name="search"
            placeholder="Search user, action, object, IP"
            aria-label="Search the system log"
            maxLength={200}
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
          />
          <button type="submit" className="button button--secondary">
            Search
          </button>
        </form>
      </div>

      {load.status === 'failed' && (
        <div className="alert alert--error panel__alert" role="alert">
          <span>{load.message}</span>
          <button type="button" className="button button--ghost" onClick={() => setReloads((n) => n + 1)}>
            Try again
          </button>
        </div>
      )}

      <div className="table-wrap" aria-busy={load.status === 'loading'}>
        <table className="table" data-testid="system-log-table">
          <thead>
            <tr>
              <th scope="col">Date time</th>
              <th scope="col">User</th>
              <th scope="col">Action</th>
              <th scope="col">Object</th>
              <th scope="col">IP</th>
            </tr>
          </thead>
          <tbody>
            {answer?.results.map((log) => (
              <tr key={log.id}>
                <td className="table__nowrap table__mono">
                  <time dateTime={log.date_time} title={log.date_time}>
                    {formatDateTime(log.date_time)}
                  </time>
                </td>
                <td>
                  {log.username ?? <span className="muted">system</span>}
                  {log.impersonator_id !== null && (
                    <span className="tag tag--warning" title={`Impersonated by user #${log.impersonator_id}`}>
                      impersonated
                    </span>
                  )}
                </td>
                <td>
                  <span className="tag">{log.action}</span>
                </td>
                <td>
                  <span className="muted">{log.object_type}</span>
                  {log.object_repr !== null && <span className="table__object"> {log.object_repr}</span>}
                </td>
                <td className="table__mono">{log.ip ?? <span className="muted">n/a</span>}</td>
              </tr>
            ))}
            {answer && answer.results.length === 0 && (
              <tr>
                <td colSpan={5} className="table__empty">
                  {filters.search ? 'Nothing in the system log matches this search.' : 'The system log is empty.'}
                </td>
              </tr>
            )}
            {!answer && load.status === 'loading' && (
              <tr>
                <td colSpan={5} className="table__empty">
                  Loading…
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>

      <nav className="pager" aria-label="System log pages">
        <span className="pager__status" data-testid="system-log-range">
          {answer ? (answer.count === 0 ? 'No records' : `${firstShown}–${lastShown} of ${answer.count}`) : ''}
        </span>
        <div className="pager__buttons">
          <button
            type="button"
            className="button button--secondary"
            disabled={!answer?.previous || load.status === 'loading'}
            onClick={() => answer?.previous && setLink(answer.previous)}
          >
            Previous
          </button>
          <button
            type="button"
            className="button button--secondary"
            disabled={!answer?.next || load.status === 'loading'}
            onClick={() => answer?.next && setLink(answer.next)}
          >
            Next
          </button>
        </div>
      </nav>
    </section>
  );
}
