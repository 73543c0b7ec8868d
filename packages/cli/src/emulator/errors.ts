/** An API error: status and the JSON body `{ error: { code, message, field? } }`. */
export interface ApiError {
  status: number;
  code: string;
  message: string;
  /** The form field at fault, for validation errors. */
  field?: string;
  headers?: Record<string, string>;
}

export function apiError(status: number, code: string, message: string, field?: string): ApiError {
  return field === undefined ? { status, code, message } : { status, code, message, field };
}

export function errorBody(error: ApiError): { error: { code: string; message: string; field?: string } } {
  const { code, message, field } = error;
  return { error: field === undefined ? { code, message } : { code, message, field } };
}
