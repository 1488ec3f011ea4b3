/** Endpoints of the alerts area (filled as its routes move onto declarations). */
export const alertEndpoints = {};
