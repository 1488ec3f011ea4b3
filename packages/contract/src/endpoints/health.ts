/** Endpoints of the health area (filled as its routes move onto declarations). */
export const healthEndpoints = {};
