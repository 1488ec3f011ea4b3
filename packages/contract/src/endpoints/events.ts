/** Endpoints of the events area (filled as its routes move onto declarations). */
export const eventEndpoints = {};
