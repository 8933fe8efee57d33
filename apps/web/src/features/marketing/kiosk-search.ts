/**
 * The server accepts at most this many characters of kiosk search text. Apart from the API hooks, so the
 * home page's pincode box does not load the API client to know it.
 */
export const KIOSK_QUERY_MAX_LENGTH = 100;
