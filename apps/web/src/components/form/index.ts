export { FormError, fieldError } from './form-error';
