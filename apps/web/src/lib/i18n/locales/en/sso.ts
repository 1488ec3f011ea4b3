/** English texts of the `sso` namespace (see ../en.ts). */
export const sso = {
  errors: {
    unavailable: 'Single sign-on is not available for your company right now.',
    invalid_state: 'The single sign-on attempt expired or was started in another browser. Try again.',
    denied: 'Single sign-on was cancelled.',
    provider_error: 'Your identity provider refused the sign-in. Try again or contact your administrator.',
    email_missing: 'Your identity provider did not share a verified e-mail address.',
    no_account: 'There is no Vigil account for this identity. Ask your administrator to create one.',
    account_disabled: 'This account is disabled.',
    subject_mismatch: 'This account is linked to another identity at your provider.',
    server_error: 'Vigil could not finish the single sign-on. Try again.',
  },
};
