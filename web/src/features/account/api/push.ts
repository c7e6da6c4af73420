// The account page's web push: the server's key, the member's subscriptions (their devices), this
// browser's subscription saved with its topics or removed.
import {
  pushKeyResponse,
  pushSubscriptionsResponse,
  type PushSubscriptionRequest,
} from '@crw/core';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

export const pushSubscriptionsQuery = queryOptions({
  queryKey: ['account', 'push'],
  queryFn: () => apiFetch('/api/push/subscriptions', pushSubscriptionsResponse),
});

export const pushKey = () => apiFetch('/api/push/key', pushKeyResponse);

export const savePushSubscription = (subscription: PushSubscriptionRequest) =>
  apiFetch('/api/push/subscriptions', pushSubscriptionsResponse, {
    method: 'POST',
    body: subscription,
  });

export const removePushSubscription = (endpoint: string) =>
  apiFetch('/api/push/subscriptions', pushSubscriptionsResponse, {
    method: 'DELETE',
    body: { endpoint },
  });
