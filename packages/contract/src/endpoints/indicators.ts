/** Endpoints of the indicators area (filled as its routes move onto declarations). */
export const indicatorEndpoints = {};
