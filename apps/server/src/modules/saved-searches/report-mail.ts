import type { SearchKind } from '@vigil/contract';
import { hitSummary } from '@vigil/contract/query';
import type { NewSearchReport } from './search-reports.repository';

/** Hits a report mail lists; the report page shows the rest. */
export const MAIL_FIRST_HITS = 5;

/** The path of a report's page in the console. */
export const searchReportPath = (id: number) => `/searches/reports/${id}`;

/** What a report mail tells: the run's report in one company. */
export type ReportForMail = Pick<
  NewSearchReport,
  'savedSearchName' | 'query' | 'kinds' | 'from' | 'to' | 'hitCount' | 'firstHits'
> & { id: number; companyName: string };

/** Whom it goes to: the name to greet, the language and time zone of their profile. */
export interface MailReader {
  name: string;
  locale: string;
  timeZone: string | null;
}

interface Words {
  hits: (count: number) => string;
  subject: (name: string, hits: string) => string;
  hello: (name: string) => string;
  found: (name: string, hits: string, company: string) => string;
  query: string;
  everything: string;
  data: string;
  kinds: Record<SearchKind, string>;
  span: string;
  firstHits: string;
  more: (count: number) => string;
  open: string;
  why: string;
}

const plural = (locale: string, forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }) => {
  const rules = new Intl.PluralRules(locale);
  return (count: number) => `${count.toLocaleString(locale)} ${forms[rules.select(count)] ?? forms.other}`;
};

const words: Record<'en' | 'ru', Words> = {
  en: {
    hits: plural('en', { one: 'hit', other: 'hits' }),
    subject: (name, hits) => `Saved search "${name}": ${hits}`,
    hello: (name) => `Hello ${name},`,
    found: (name, hits, company) =>
      `the saved search "${name}" found ${hits} in ${company} among the events that arrived since its last run.`,
    query: 'Query',
    everything: '(every event)',
    data: 'Data',
    kinds: { network: 'network', endpoint: 'endpoints', mail: 'mail', alerts: 'alerts' },
    span: 'Events from – to',
    firstHits: 'First hits, newest first:',
    more: (count) => `… and ${count.toLocaleString('en')} more in the report.`,
    open: 'Open the report:',
    why: 'You get this mail because you asked for the reports of this saved search. To stop them, turn off "Mail me the reports" on the saved searches page.',
  },
  ru: {
    hits: plural('ru', { one: 'совпадение', few: 'совпадения', many: 'совпадений', other: 'совпадения' }),
    subject: (name, hits) => `Сохранённый поиск «${name}»: ${hits}`,
    hello: (name) => `Здравствуйте, ${name}!`,
    found: (name, hits, company) =>
      `Сохранённый поиск «${name}» нашёл ${hits} в компании «${company}» среди событий, поступивших после его прошлого запуска.`,
    query: 'Запрос',
    everything: '(все события)',
    data: 'Данные',
    kinds: { network: 'сеть', endpoint: 'хосты', mail: 'почта', alerts: 'алерты' },
    span: 'События с — по',
    firstHits: 'Первые совпадения, сначала новые:',
    more: (count) => `…и ещё ${count.toLocaleString('ru')} в отчёте.`,
    open: 'Открыть отчёт:',
    why: 'Вы получили это письмо, потому что подписались на отчёты по этому сохранённому поиску. Чтобы больше их не получать, выключите «Присылать мне отчёты» на странице сохранённых поисков.',
  },
};

/** A time in the reader's zone (UTC when they chose none, or one this runtime does not know). */
function timeIn(date: Date, locale: string, timeZone: string | null): string {
  const format = (zone: string) =>
    new Intl.DateTimeFormat(locale === 'ru' ? 'ru-RU' : 'en-GB', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZone: zone,
      timeZoneName: 'short',
    }).format(date);
  try {
    return format(timeZone ?? 'UTC');
  } catch {
    return format('UTC');
  }
}

/** One line of text: control characters and runs of blanks become one space. */
// eslint-disable-next-line no-control-regex
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();

/** Longest subject a mail job takes. */
const SUBJECT_MAX = 200;

/**
 * The mail that tells a subscriber what a run found: the saved search and the hit count in the
 * subject; the query, the data, the span of the events, the first hits and the report's link in the
 * text, in the reader's language.
 */
export function reportMail(
  report: ReportForMail,
  reader: MailReader,
  publicUrl: string | undefined,
): { subject: string; text: string } {
  const language = reader.locale === 'ru' ? 'ru' : 'en';
  const w = words[language];
  const hits = w.hits(report.hitCount);
  const name = oneLine(report.savedSearchName);
  const fixed = w.subject('', hits).length;
  const shortName = name.length + fixed > SUBJECT_MAX ? `${name.slice(0, SUBJECT_MAX - fixed - 1)}…` : name;
  const shown = report.firstHits.slice(0, MAIL_FIRST_HITS);
  const time = (date: Date) => timeIn(date, language, reader.timeZone);
  const lines = [
    w.hello(oneLine(reader.name)),
    '',
    w.found(name, hits, oneLine(report.companyName)),
    '',
    `${w.query}: ${report.query.trim() === '' ? w.everything : report.query}`,
    `${w.data}: ${report.kinds.map((kind) => w.kinds[kind]).join(', ')}`,
    `${w.span}: ${time(report.from)} — ${time(report.to)}`,
    '',
    w.firstHits,
    ...shown.map((hit) => `- ${time(new Date(hit.ts))}  ${w.kinds[hit.kind]}  ${hitSummary(hit.kind, hit.event)}`),
    ...(report.hitCount > shown.length ? [w.more(report.hitCount - shown.length)] : []),
    '',
    w.open,
    `${publicUrl ?? ''}${searchReportPath(report.id)}`,
    '',
    '--',
    w.why,
  ];
  return { subject: w.subject(shortName, hits), text: lines.join('\n') };
}
