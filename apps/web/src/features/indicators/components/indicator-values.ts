import type { IndicatorType } from '@vigil/contract';

/** The indicator types of the contract (kept here as values so zod is not bundled); the type check keeps them complete. */
export const indicatorTypeValues = [
  'ip',
  'cidr',
  'domain',
  'url',
  'email',
  'md5',
  'sha1',
  'sha256',
  'filename',
] as const;
type Missing = Exclude<IndicatorType, (typeof indicatorTypeValues)[number]>;
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;
