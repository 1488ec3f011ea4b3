/** Endpoints of the users area (filled as its routes move onto declarations). */
export const userEndpoints = {};
