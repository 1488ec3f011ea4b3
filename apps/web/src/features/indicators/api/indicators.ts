import type {
  Indicator as IndicatorWire,
  IndicatorCreate,
  IndicatorImportAnswer,
  IndicatorUpdate,
} from '@vigil/contract';
import { endpoints, endpointUrl } from '@vigil/contract/client';
import { call, type Camelize } from '../../../lib/http';
import { defineList } from '../../../lib/list';

export type Indicator = Camelize<IndicatorWire>;
export type ImportAnswer = Camelize<IndicatorImportAnswer>;

export const indicatorKeys = { all: ['indicators'] as const };

/** Indicators over the list engine (`POST /api/indicators/check/`); filters and ordering kept in the URL. */
export const indicatorList = defineList(endpoints.indicators.list, {
  pageSizes: [25, 50, 100, 200],
  defaultPageSize: 50,
  omit: ['source'],
});

/** The fields the indicator form shows problems beside. */
export const indicatorFormFields = [
  'type',
  'value',
  'policy',
  'severity',
  'expiresAt',
  'tags',
  'source',
  'description',
  'companyId',
  'allCompanies',
] as const;

export const createIndicator = (data: Camelize<IndicatorCreate>) =>
  call(endpoints.indicators.create, { body: data, shownFields: indicatorFormFields });
export const updateIndicator = (id: number, data: Camelize<IndicatorUpdate>) =>
  call(endpoints.indicators.update, { params: { id }, body: data, shownFields: indicatorFormFields });
export const deleteIndicator = (id: number) => call(endpoints.indicators.remove, { params: { id } });
export const deleteIndicators = (ids: number[]) => call(endpoints.indicators.bulkDelete, { body: { ids } });

/** Imports a CSV text into the caller's company (or the one named); rows refused are listed in the answer. */
export const importIndicators = (csv: string, target: { companyId?: number; allCompanies?: boolean }) =>
  // The endpoint's body is declared raw (CSV or JSON): its JSON form is typed here.
  call(endpoints.indicators.import, { body: { csv, ...target } as never }) as Promise<ImportAnswer>;

/** Where the browser downloads every indicator in scope as CSV (a link: the browser saves the file). */
export const indicatorExportUrl = () => endpointUrl(endpoints.indicators.export.path);
