export { checkSigmaFiles, checkSigmaSource, sigmaFilesUnder, type SigmaFileResult } from './check';
export { compileSigmaRule, type CompiledRule, type SigmaCompileOptions } from './compile';
export { SigmaEngine, type SigmaMatch } from './engine';
export { EndpointView } from './fields';
export { SIGMAHQ_LICENSE, parseSigmaYaml } from './parse';
export { SigmaRefusal, type SigmaRuleInfo, type SigmaLogsource } from './types';
