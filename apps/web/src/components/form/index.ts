export { FormError, fieldError, fieldProblem } from './form-error';
export { CompanySelect } from './company-select';
export { FormActions, FormFrame } from './form-frame';
export { useFormValues } from './form-values';
export { SaveButton } from './save-button';
export { DropZone } from './drop-zone';
export { CsvImportModal } from './csv-import';
export type { CsvImportTexts } from './csv-import';
