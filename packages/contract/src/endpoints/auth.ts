/** Endpoints of the auth area (filled as its routes move onto declarations). */
export const authEndpoints = {};
