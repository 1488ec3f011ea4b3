/** Endpoints of the widgets area (filled as its routes move onto declarations). */
export const widgetEndpoints = {};
