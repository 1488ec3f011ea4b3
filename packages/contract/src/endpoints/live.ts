/** Endpoints of the live area (filled as its routes move onto declarations). */
export const liveEndpoints = {};
