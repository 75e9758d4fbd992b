/** The package's version, sent in `X-Raffle-Client`; a test holds it equal to package.json's. */
export const SDK_VERSION = '1.0.0';
