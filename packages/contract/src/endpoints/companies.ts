/** Endpoints of the companies area (filled as its routes move onto declarations). */
export const companyEndpoints = {};
