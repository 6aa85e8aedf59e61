/** The first call an integrator makes: it answers the organization the key acts for. */
export const curlExample = (baseUrl: string, key: string, secret: string) =>
  `curl -u '${key}:${secret}' ${baseUrl}/integrations/whoami`;

/** Listing the organization's credential schemas with the key (Basic auth implies the organization). */
export const curlSchemasExample = (baseUrl: string, key: string, secret: string) =>
  `curl -u '${key}:${secret}' '${baseUrl}/schemas?page=1&limit=10'`;

/** Stands for the secret in examples shown after creation (the secret itself is never available again). */
export const SECRET_PLACEHOLDER = '<secret>';
