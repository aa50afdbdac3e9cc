import type { CustomDataResult } from '@svc/protocol/page-api';

// The page API is typed in protocol/src/page-api.ts, the source of the page authors' svc-api.d.ts.
export type {
  CallbackName,
  CallEndResult,
  ChatMode,
  ContactInfoResult,
  CustomDataResult,
  OfflineMessage,
  OfflineMessageResult,
  OpenOptions,
  PageCallbacks,
  SvcApi,
  UserTokenResult,
  VisitorNumberCallback,
  WidgetState,
} from '@svc/protocol/page-api';

export const CUSTOM_DATA_NOT_ARRAY = 'Custom data must be array.' satisfies Extract<CustomDataResult, { result: 'fail' }>['reason'];
