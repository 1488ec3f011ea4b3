/** Builds an endpoint's URL from its path and parameter values. */
export function endpointUrl(path: string, params?: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`The path ${path} needs the parameter "${name}".`);
    return encodeURIComponent(String(value));
  });
}
