/** Typed functions for every v2 row of spec section 4.4 (plus the file download), grouped by resource. */
import type { ApiContext, CallOptions, Download } from './context';
import { keepingSecret } from '../redact';
import { seg } from '../http';
import { parseApplicationV2, type ApplicationDraftV2, type ApplicationV2 } from '../models/application';
import { parseFileRecord, type FileRecord, type FilesQuery } from '../models/file';
import { parseArray } from '../models/read';
import {
  parseCreatedGroup,
  parseCustomNames,
  parseGroup,
  parseMemberV2,
  parseAccountV2,
  type CreatedGroup,
  type CustomNames,
  type Group,
  type GroupBody,
  type MemberBodyV2,
  type MemberV2,
  type AccountV2,
} from '../models/v2';
import { byId, byUsername, iteratePaged, normalisePageQuery, pageFromArray, parseEnvelope } from '../paging';
import type { Page, PageQuery } from '../paging';

function filesQuery(query: FilesQuery, page: number, size: number) {
  return {
    page,
    size,
    orderBy: query.orderBy,
    ascending: query.ascending,
    name: query.name,
    modifiedAfter: query.modifiedAfter,
    foldersOnly: query.foldersOnly,
    recursive: query.recursive,
  };
}

/** Creating an application through v2. */
function applicationsV2(api: ApiContext) {
  const service = api.service;
  return {
    /** POST /v2/applications → 200, with clientId and clientSecret (masked in later logs and errors). */
    create: (draft: ApplicationDraftV2, o?: CallOptions): Promise<ApplicationV2> =>
      api.json({ method: 'POST', path: '/v2/applications', body: draft, signal: o?.signal }, (j) =>
        keepingSecret(api, parseApplicationV2(j, service)),
      ),
  };
}

/** Organisations and their custom component names. */
function accountsV2(api: ApiContext) {
  return {
    list: (o?: CallOptions): Promise<AccountV2[]> =>
      api.json({ method: 'GET', path: '/v2/accounts', signal: o?.signal }, (j) =>
        parseArray(j, 'organisations', parseAccountV2),
      ),
    get: (accountId: number, o?: CallOptions): Promise<AccountV2> =>
      api.json({ method: 'GET', path: `/v2/accounts/${seg(accountId)}`, signal: o?.signal }, parseAccountV2),
    /** Custom component names; {} when none are customised. */
    custom: (accountId: number, o?: CallOptions): Promise<CustomNames> =>
      api.json({ method: 'GET', path: `/v2/accounts/${seg(accountId)}/custom`, signal: o?.signal }, parseCustomNames),
  };
}

/** Groups of an organisation (a plain array). */
function groupsV2(api: ApiContext) {
  const service = api.service;
  const groupsPath = (accountId: number) => `/v2/accounts/${seg(accountId)}/groups`;
  const group = (j: unknown) => parseGroup(j, service);
  const groupsList = (accountId: number, query?: PageQuery, o?: CallOptions): Promise<Group[]> =>
    api.json(
      {
        method: 'GET',
        path: groupsPath(accountId),
        query: { page: query?.page, size: query?.size },
        signal: o?.signal,
      },
      (j) => parseArray(j, 'groups', group),
    );
  const groupsPage = async (accountId: number, query?: PageQuery, o?: CallOptions): Promise<Page<Group>> => {
    const q = normalisePageQuery(query);
    return pageFromArray(await groupsList(accountId, q, o), q);
  };

  return {
    /** Every group of the organisation (or one slice with page/size). */
    list: groupsList,
    /** One slice as a Page (plain-array list: a short page ends it). */
    page: groupsPage,
    iterate: (accountId: number, query: Omit<PageQuery, 'page'> = {}, o?: CallOptions): AsyncIterable<Group> =>
      iteratePaged((p, po) => groupsPage(accountId, p, po), query, o, byId),
    get: (accountId: number, groupId: number, o?: CallOptions): Promise<Group> =>
      api.json({ method: 'GET', path: `${groupsPath(accountId)}/${seg(groupId)}`, signal: o?.signal }, group),
    /** The answer's id, dates, user, contextKey and account may be null (spec). */
    create: (accountId: number, body: GroupBody, o?: CallOptions): Promise<CreatedGroup> =>
      api.json({ method: 'POST', path: groupsPath(accountId), body, signal: o?.signal }, (j) =>
        parseCreatedGroup(j, service),
      ),
    /** v2 updates with POST on the group's path. */
    update: (accountId: number, groupId: number, body: GroupBody, o?: CallOptions): Promise<Group> =>
      api.json({ method: 'POST', path: `${groupsPath(accountId)}/${seg(groupId)}`, body, signal: o?.signal }, group),
    /** Moves the group to the trash. */
    delete: (accountId: number, groupId: number, o?: CallOptions): Promise<void> =>
      api.empty({ method: 'DELETE', path: `${groupsPath(accountId)}/${seg(groupId)}`, signal: o?.signal }),
    /** Starts a copy named `duplicateName` (202 Accepted; the copy appears later). */
    duplicate: (accountId: number, groupId: number, duplicateName: string, o?: CallOptions): Promise<void> =>
      api.empty({
        method: 'GET',
        path: `${groupsPath(accountId)}/${seg(groupId)}/duplicate`,
        query: { duplicateName },
        signal: o?.signal,
      }),
  };
}

/** Members of an organisation (paged envelope). */
function membersV2(api: ApiContext) {
  const membersPath = (accountId: number) => `/v2/accounts/${seg(accountId)}/members`;
  const membersPage = (accountId: number, query?: PageQuery, o?: CallOptions): Promise<Page<MemberV2>> => {
    const { page, size } = normalisePageQuery(query);
    return api.json({ method: 'GET', path: membersPath(accountId), query: { page, size }, signal: o?.signal }, (j) =>
      parseEnvelope('page', j, parseMemberV2, { page, size }),
    );
  };

  return {
    page: membersPage,
    iterate: (accountId: number, query: Omit<PageQuery, 'page'> = {}, o?: CallOptions): AsyncIterable<MemberV2> =>
      iteratePaged((p, po) => membersPage(accountId, p, po), query, o, byUsername),
    /** Includes `groups` (group name → permission). */
    get: (accountId: number, username: string, o?: CallOptions): Promise<MemberV2> =>
      api.json({ method: 'GET', path: `${membersPath(accountId)}/${seg(username)}`, signal: o?.signal }, parseMemberV2),
    create: (accountId: number, body: MemberBodyV2, o?: CallOptions): Promise<MemberV2> =>
      api.json({ method: 'POST', path: membersPath(accountId), body, signal: o?.signal }, parseMemberV2),
    /** v2 updates with POST on the member's path. */
    update: (accountId: number, username: string, body: MemberBodyV2, o?: CallOptions): Promise<MemberV2> =>
      api.json(
        { method: 'POST', path: `${membersPath(accountId)}/${seg(username)}`, body, signal: o?.signal },
        parseMemberV2,
      ),
    delete: (accountId: number, username: string, o?: CallOptions): Promise<void> =>
      api.empty({ method: 'DELETE', path: `${membersPath(accountId)}/${seg(username)}`, signal: o?.signal }),
  };
}

const filesPath = (accountId: number, groupId: number) => `/v2/accounts/${seg(accountId)}/groups/${seg(groupId)}/files`;

/** Single-page reads of a group's records: its root level (or all, recursively) and a folder's children. */
function filePagesV2(api: ApiContext) {
  const file = (j: unknown) => parseFileRecord(j, api.service);
  const filesPage = (
    accountId: number,
    groupId: number,
    query: FilesQuery = {},
    o?: CallOptions,
  ): Promise<Page<FileRecord>> => {
    const { page, size } = normalisePageQuery(query);
    return api.json(
      { method: 'GET', path: filesPath(accountId, groupId), query: filesQuery(query, page, size), signal: o?.signal },
      (j) => parseEnvelope('page', j, file, { page, size }),
    );
  };
  const childrenPage = (
    accountId: number,
    groupId: number,
    folderId: number,
    query: Omit<FilesQuery, 'recursive'> = {},
    o?: CallOptions,
  ): Promise<Page<FileRecord>> => {
    const { page, size } = normalisePageQuery(query);
    return api.json(
      {
        method: 'GET',
        path: `${filesPath(accountId, groupId)}/${seg(folderId)}/children`,
        query: filesQuery(query, page, size),
        signal: o?.signal,
      },
      (j) => parseEnvelope('page', j, file, { page, size }),
    );
  };
  return { file, filesPage, childrenPage };
}

/** File records of a group, and their content. */
function filesV2(api: ApiContext) {
  const { file, filesPage, childrenPage } = filePagesV2(api);
  return {
    /** One page of the group's root level (or, with `recursive`, of every record). */
    page: filesPage,
    iterate: (
      accountId: number,
      groupId: number,
      query: Omit<FilesQuery, 'page'> = {},
      o?: CallOptions,
    ): AsyncIterable<FileRecord> =>
      iteratePaged((p, po) => filesPage(accountId, groupId, { ...query, ...p }, po), query, o, byId),
    /** One page of a folder's children. */
    children: childrenPage,
    iterateChildren: (
      accountId: number,
      groupId: number,
      folderId: number,
      query: Omit<FilesQuery, 'page' | 'recursive'> = {},
      o?: CallOptions,
    ): AsyncIterable<FileRecord> =>
      iteratePaged((p, po) => childrenPage(accountId, groupId, folderId, { ...query, ...p }, po), query, o, byId),
    /** A single record (path assumed from the v2 shape: .../files/{file}). */
    get: (accountId: number, groupId: number, fileId: number, o?: CallOptions): Promise<FileRecord> =>
      api.json({ method: 'GET', path: `${filesPath(accountId, groupId)}/${seg(fileId)}`, signal: o?.signal }, file),
    /** The file's bytes (GET /v3/groups/{group}/files/{file}/download). Abort with the signal. */
    download: (groupId: number, fileId: number, o?: CallOptions): Promise<Download> =>
      api.download({
        method: 'GET',
        path: `/v3/groups/${seg(groupId)}/files/${seg(fileId)}/download`,
        signal: o?.signal,
      }),
  };
}

export function createV2(api: ApiContext) {
  return {
    applications: applicationsV2(api),
    accounts: accountsV2(api),
    groups: groupsV2(api),
    members: membersV2(api),
    files: filesV2(api),
  };
}

export type V2Api = ReturnType<typeof createV2>;
