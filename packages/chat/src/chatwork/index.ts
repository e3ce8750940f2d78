export {
  CHATWORK_API_BASE,
  CHATWORK_FILE_LIMIT,
  chatworkAdapter,
  chatworkRoomId,
} from './chatwork-adapter.ts';
export { CHATWORK_BODY_LIMIT, chatworkBody } from './chatwork-message.ts';
