/** Endpoints of the sessions area (filled as its routes move onto declarations). */
export const sessionEndpoints = {};
