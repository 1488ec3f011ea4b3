/** Endpoints of the roles area (filled as its routes move onto declarations). */
export const roleEndpoints = {};
