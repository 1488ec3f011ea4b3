export { FormError, fieldError } from './form-error';
export { CompanySelect } from './company-select';
export { FormActions, FormFrame } from './form-frame';
