/** Endpoints of the sso area (filled as its routes move onto declarations). */
export const ssoEndpoints = {};
