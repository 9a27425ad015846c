/** Typed functions for every v3 row of spec section 4.2, grouped by resource. */
import type { ApiContext, CallOptions } from './context';
import { keepingSecret } from '../redact';
import { seg } from '../http';
import {
  parseAccount,
  parseComponent,
  parseSubscription,
  type Account,
  type Component,
  type Subscription,
} from '../models/account';
import {
  parseApplication,
  type Application,
  type ApplicationDraft,
  type ApplicationUpdate,
} from '../models/application';
import {
  parseMember,
  parseMemberTagSummary,
  type Member,
  type MemberCreate,
  type MemberTagSummary,
  type MemberUpdate,
} from '../models/member';
import { parseArray } from '../models/read';
import { parseUserInfo, type UserInfo } from '../models/user';
import { byUsername, iteratePaged, normalisePageQuery, pageFromArray, parseEnvelope } from '../paging';
import type { Page, PageQuery } from '../paging';

export type MemberOrder = 'name' | 'username' | 'email' | 'dateCreated' | 'lastActive';

export interface MembersQuery extends PageQuery {
  orderBy?: MemberOrder;
  ascending?: boolean;
  /** Find by name or e-mail (substring). */
  name?: string;
  /** Name or e-mail starts with. */
  startsWith?: string;
}

export interface TagSummaryQuery extends PageQuery {
  orderBy?: 'name' | 'members';
  ascending?: boolean;
  name?: string;
  startsWith?: string;
}

export type TagMembersQuery = Omit<MembersQuery, 'name' | 'startsWith'>;

export interface AccountUpdate {
  friendlyName?: string;
  name?: string;
  locale?: string;
}

/** The signed-in user's applications (client credentials). */
function applicationsV3(api: ApiContext) {
  const app = (j: unknown) => parseApplication(j, api.service);
  return {
    /** POST /v3/applications → 201, with clientSecret (masked in later logs and errors). */
    create: (draft: ApplicationDraft, o?: CallOptions): Promise<Application> =>
      api.json({ method: 'POST', path: '/v3/applications', body: draft, signal: o?.signal }, (j) =>
        keepingSecret(api, app(j)),
      ),
    /** GET /v3/applications (no secrets). */
    list: (o?: CallOptions): Promise<Application[]> =>
      api.json({ method: 'GET', path: '/v3/applications', signal: o?.signal }, (j) =>
        parseArray(j, 'applications', app),
      ),
    get: (clientId: string, o?: CallOptions): Promise<Application> =>
      api.json({ method: 'GET', path: `/v3/applications/${seg(clientId)}`, signal: o?.signal }, app),
    /** PATCH; with rotateSecret the answer carries the new clientSecret (masked in later logs and errors). */
    update: (clientId: string, update: ApplicationUpdate, o?: CallOptions): Promise<Application> =>
      api.json({ method: 'PATCH', path: `/v3/applications/${seg(clientId)}`, body: update, signal: o?.signal }, (j) =>
        keepingSecret(api, app(j)),
      ),
    /** Its client credentials stop working at once. */
    delete: (clientId: string, o?: CallOptions): Promise<void> =>
      api.empty({ method: 'DELETE', path: `/v3/applications/${seg(clientId)}`, signal: o?.signal }),
  };
}

/** Organisations, their subscription and components. */
function accountsV3(api: ApiContext) {
  return {
    list: (enabledOnly?: boolean, o?: CallOptions): Promise<Account[]> =>
      api.json({ method: 'GET', path: '/v3/accounts', query: { enabledOnly }, signal: o?.signal }, (j) =>
        parseArray(j, 'accounts', parseAccount),
      ),
    get: (accountId: number, o?: CallOptions): Promise<Account> =>
      api.json({ method: 'GET', path: `/v3/accounts/${seg(accountId)}`, signal: o?.signal }, parseAccount),
    update: (accountId: number, update: AccountUpdate, o?: CallOptions): Promise<Account> =>
      api.json(
        { method: 'PATCH', path: `/v3/accounts/${seg(accountId)}`, body: update, signal: o?.signal },
        parseAccount,
      ),
    subscription: (accountId: number, o?: CallOptions): Promise<Subscription> =>
      api.json(
        { method: 'GET', path: `/v3/accounts/${seg(accountId)}/subscription`, signal: o?.signal },
        parseSubscription,
      ),
    components: (accountId: number, o?: CallOptions): Promise<Component[]> =>
      api.json({ method: 'GET', path: `/v3/accounts/${seg(accountId)}/components`, signal: o?.signal }, (j) =>
        parseArray(j, 'components', parseComponent),
      ),
  };
}

/** Members of an organisation (paged envelope). */
function membersV3(api: ApiContext) {
  const membersPath = (accountId: number) => `/v3/accounts/${seg(accountId)}/members`;
  const membersPage = (accountId: number, query: MembersQuery = {}, o?: CallOptions): Promise<Page<Member>> => {
    const { page, size } = normalisePageQuery(query);
    return api.json(
      {
        method: 'GET',
        path: membersPath(accountId),
        query: {
          page,
          size,
          orderBy: query.orderBy,
          ascending: query.ascending,
          name: query.name,
          startsWith: query.startsWith,
        },
        signal: o?.signal,
      },
      (j) => parseEnvelope('items', j, parseMember, { page, size }),
    );
  };

  return {
    /** POST → 200, Member. */
    create: (accountId: number, body: MemberCreate, o?: CallOptions): Promise<Member> =>
      api.json({ method: 'POST', path: membersPath(accountId), body, signal: o?.signal }, parseMember),
    /** One page (one request). */
    page: membersPage,
    /** Every member, fetching the next page only when the consumer gets there. */
    iterate: (accountId: number, query: Omit<MembersQuery, 'page'> = {}, o?: CallOptions): AsyncIterable<Member> =>
      iteratePaged((p, po) => membersPage(accountId, { ...query, ...p }, po), query, o, byUsername),
    get: (accountId: number, username: string, o?: CallOptions): Promise<Member> =>
      api.json({ method: 'GET', path: `${membersPath(accountId)}/${seg(username)}`, signal: o?.signal }, parseMember),
    update: (accountId: number, username: string, update: MemberUpdate, o?: CallOptions): Promise<Member> =>
      api.json(
        { method: 'PATCH', path: `${membersPath(accountId)}/${seg(username)}`, body: update, signal: o?.signal },
        parseMember,
      ),
    /** Removes the member from the organisation (a user left without organisation is deleted for good). */
    delete: (accountId: number, username: string, o?: CallOptions): Promise<void> =>
      api.empty({ method: 'DELETE', path: `${membersPath(accountId)}/${seg(username)}`, signal: o?.signal }),
  };
}

const tagsPath = (accountId: number) => `/v3/accounts/${seg(accountId)}/member-tags`;

/** A page of members carrying any of the tags (GET member-tags/{tags}). */
function tagMembersPageV3(api: ApiContext) {
  return (
    accountId: number,
    tags: readonly string[],
    query: TagMembersQuery = {},
    o?: CallOptions,
  ): Promise<Page<Member>> => {
    const { page, size } = normalisePageQuery(query);
    return api.json(
      {
        method: 'GET',
        path: `${tagsPath(accountId)}/${tags.map(seg).join(',')}`,
        query: { page, size, orderBy: query.orderBy, ascending: query.ascending },
        signal: o?.signal,
      },
      (j) => parseEnvelope('items', j, parseMember, { page, size }),
    );
  };
}

/** Tags with member counts (GET member-tags?summary). */
function tagSummaryV3(api: ApiContext) {
  return (accountId: number, query: TagSummaryQuery = {}, o?: CallOptions): Promise<MemberTagSummary[]> =>
    api.json(
      {
        method: 'GET',
        path: tagsPath(accountId),
        query: {
          summary: '',
          orderBy: query.orderBy,
          ascending: query.ascending,
          name: query.name,
          startsWith: query.startsWith,
          page: query.page,
          size: query.size,
        },
        signal: o?.signal,
      },
      (j) => parseArray(j, 'member tag summary', parseMemberTagSummary),
    );
}

/** Member tags: names, counts, and the members carrying them. */
function memberTagsV3(api: ApiContext) {
  const tagMembersPage = tagMembersPageV3(api);
  const memberTags = {
    /** Tag names. With page/size, one slice (the server answers a plain array). */
    list: (accountId: number, query?: PageQuery, o?: CallOptions): Promise<string[]> =>
      api.json(
        {
          method: 'GET',
          path: tagsPath(accountId),
          query: { page: query?.page, size: query?.size },
          signal: o?.signal,
        },
        (j) => parseArray(j, 'member tags', (t) => (typeof t === 'string' ? t : String(t))),
      ),
    /** Tags with member counts (GET member-tags?summary). */
    summary: tagSummaryV3(api),
    /** A page of members carrying any of the tags (GET member-tags/{tags}). */
    members: tagMembersPage,
    iterateMembers: (
      accountId: number,
      tags: readonly string[],
      query: Omit<TagMembersQuery, 'page'> = {},
      o?: CallOptions,
    ): AsyncIterable<Member> =>
      iteratePaged((p, po) => tagMembersPage(accountId, tags, { ...query, ...p }, po), query, o, byUsername),
    /** One page of tag names as a Page (plain-array list: a short page ends it). */
    page: async (accountId: number, query?: PageQuery, o?: CallOptions): Promise<Page<string>> => {
      const q = normalisePageQuery(query);
      const list = await memberTags.list(accountId, q, o);
      return pageFromArray(list, q);
    },
  };
  return memberTags;
}

export function createV3(api: ApiContext) {
  return {
    /** GET /v3/userinfo: the signed-in user and their organisations. */
    userinfo: (o?: CallOptions): Promise<UserInfo> =>
      api.json({ method: 'GET', path: '/v3/userinfo', signal: o?.signal }, (j) => parseUserInfo(j, api.service)),
    applications: applicationsV3(api),
    accounts: accountsV3(api),
    members: membersV3(api),
    memberTags: memberTagsV3(api),
  };
}

export type V3Api = ReturnType<typeof createV3>;
