/** Endpoints of the mail area (filled as its routes move onto declarations). */
export const mailEndpoints = {};
