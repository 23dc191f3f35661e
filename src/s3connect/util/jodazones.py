"""The zone IDs of Joda-Time 2.13.1 (the version Confluent's storage-common pins; its tz database
is global-tz 2025a): every ID ``DateTimeZone.forID`` knows, the ID ``getID()`` gives for an alias
(``US/Eastern`` is ``America/New_York``, ``EST`` is ``America/Panama``), and the few IDs Joda
keeps whose offsets are another zone's (``CET`` has ``Europe/Brussels``'s history, as tz 2024b
made it). Checked against Joda itself by ``tests/reference/test_joda.py``."""

from __future__ import annotations

from functools import cache

__all__ = ["JODA_TZDB", "joda_zone"]

JODA_TZDB = "2025a"
"""The tz database release compiled into Joda-Time 2.13.1."""

# Canonical IDs by area ("" for IDs without one).
_AREAS = {
    "": "CET EET UTC WET",
    "Africa": (
        "Abidjan Accra Addis_Ababa Algiers Asmara Bamako Bangui Banjul Bissau Blantyre "
        "Brazzaville Bujumbura Cairo Casablanca Ceuta Conakry Dakar Dar_es_Salaam Djibouti "
        "Douala El_Aaiun Freetown Gaborone Harare Johannesburg Juba Kampala Khartoum Kigali "
        "Kinshasa Lagos Libreville Lome Luanda Lubumbashi Lusaka Malabo Maputo Maseru Mbabane "
        "Mogadishu Monrovia Nairobi Ndjamena Niamey Nouakchott Ouagadougou Porto-Novo "
        "Sao_Tome Tripoli Tunis Windhoek"
    ),
    "America": (
        "Adak Anchorage Anguilla Antigua Araguaina Aruba Asuncion Atikokan Bahia "
        "Bahia_Banderas Barbados Belem Belize Blanc-Sablon Boa_Vista Bogota Boise "
        "Cambridge_Bay Campo_Grande Cancun Caracas Cayenne Cayman Chicago Chihuahua "
        "Ciudad_Juarez Costa_Rica Creston Cuiaba Curacao Danmarkshavn Dawson Dawson_Creek "
        "Denver Detroit Dominica Edmonton Eirunepe El_Salvador Fort_Nelson Fortaleza "
        "Glace_Bay Goose_Bay Grand_Turk Grenada Guadeloupe Guatemala Guayaquil Guyana Halifax "
        "Havana Hermosillo Inuvik Iqaluit Jamaica Juneau Kralendijk La_Paz Lima Los_Angeles "
        "Lower_Princes Maceio Managua Manaus Marigot Martinique Matamoros Mazatlan Menominee "
        "Merida Metlakatla Mexico_City Miquelon Moncton Monterrey Montevideo Montserrat "
        "Nassau New_York Nome Noronha Nuuk Ojinaga Panama Paramaribo Phoenix Port-au-Prince "
        "Port_of_Spain Porto_Velho Puerto_Rico Punta_Arenas Rankin_Inlet Recife Regina "
        "Resolute Rio_Branco Santarem Santiago Santo_Domingo Sao_Paulo Scoresbysund Sitka "
        "St_Barthelemy St_Johns St_Kitts St_Lucia St_Thomas St_Vincent Swift_Current "
        "Tegucigalpa Thule Tijuana Toronto Tortola Vancouver Whitehorse Winnipeg Yakutat"
    ),
    "America/Argentina": (
        "Buenos_Aires Catamarca Cordoba Jujuy La_Rioja Mendoza Rio_Gallegos Salta San_Juan "
        "San_Luis Tucuman Ushuaia"
    ),
    "America/Indiana": "Indianapolis Knox Marengo Petersburg Tell_City Vevay Vincennes Winamac",
    "America/Kentucky": "Louisville Monticello",
    "America/North_Dakota": "Beulah Center New_Salem",
    "Antarctica": (
        "Casey Davis DumontDUrville Macquarie Mawson McMurdo Palmer Rothera Syowa Troll Vostok"
    ),
    "Arctic": "Longyearbyen",
    "Asia": (
        "Aden Almaty Amman Anadyr Aqtau Aqtobe Ashgabat Atyrau Baghdad Bahrain Baku Bangkok "
        "Barnaul Beirut Bishkek Brunei Chita Colombo Damascus Dhaka Dili Dubai Dushanbe "
        "Famagusta Gaza Hebron Ho_Chi_Minh Hong_Kong Hovd Irkutsk Jakarta Jayapura Jerusalem "
        "Kabul Kamchatka Karachi Kathmandu Khandyga Kolkata Krasnoyarsk Kuala_Lumpur Kuching "
        "Kuwait Macau Magadan Makassar Manila Muscat Nicosia Novokuznetsk Novosibirsk Omsk "
        "Oral Phnom_Penh Pontianak Pyongyang Qatar Qostanay Qyzylorda Riyadh Sakhalin "
        "Samarkand Seoul Shanghai Singapore Srednekolymsk Taipei Tashkent Tbilisi Tehran "
        "Thimphu Tokyo Tomsk Ulaanbaatar Urumqi Ust-Nera Vientiane Vladivostok Yakutsk Yangon "
        "Yekaterinburg Yerevan"
    ),
    "Atlantic": (
        "Azores Bermuda Canary Cape_Verde Faroe Madeira Reykjavik South_Georgia St_Helena Stanley"
    ),
    "Australia": (
        "Adelaide Brisbane Broken_Hill Darwin Eucla Hobart Lindeman Lord_Howe Melbourne Perth "
        "Sydney"
    ),
    "Etc": (
        "GMT GMT+1 GMT+10 GMT+11 GMT+12 GMT+2 GMT+3 GMT+4 GMT+5 GMT+6 GMT+7 GMT+8 GMT+9 GMT-1 "
        "GMT-10 GMT-11 GMT-12 GMT-13 GMT-14 GMT-2 GMT-3 GMT-4 GMT-5 GMT-6 GMT-7 GMT-8 GMT-9 "
        "UTC"
    ),
    "Europe": (
        "Amsterdam Andorra Astrakhan Athens Belgrade Berlin Bratislava Brussels Bucharest "
        "Budapest Busingen Chisinau Copenhagen Dublin Gibraltar Guernsey Helsinki Isle_of_Man "
        "Istanbul Jersey Kaliningrad Kirov Kyiv Lisbon Ljubljana London Luxembourg Madrid "
        "Malta Mariehamn Minsk Monaco Moscow Oslo Paris Podgorica Prague Riga Rome Samara "
        "San_Marino Sarajevo Saratov Simferopol Skopje Sofia Stockholm Tallinn Tirane "
        "Ulyanovsk Vaduz Vatican Vienna Vilnius Volgograd Warsaw Zagreb Zurich"
    ),
    "Indian": (
        "Antananarivo Chagos Christmas Cocos Comoro Kerguelen Mahe Maldives Mauritius Mayotte "
        "Reunion"
    ),
    "Pacific": (
        "Apia Auckland Bougainville Chatham Chuuk Easter Efate Fakaofo Fiji Funafuti "
        "Galapagos Gambier Guadalcanal Guam Honolulu Kanton Kiritimati Kosrae Kwajalein "
        "Majuro Marquesas Midway Nauru Niue Norfolk Noumea Pago_Pago Palau Pitcairn Pohnpei "
        "Port_Moresby Rarotonga Saipan Tahiti Tarawa Tongatapu Wake Wallis"
    ),
}

# Aliases, as ALIAS>ID.
_LINKS = (
    "Africa/Asmera>Africa/Asmara Africa/Timbuktu>Africa/Bamako "
    "America/Argentina/ComodRivadavia>America/Argentina/Catamarca America/Atka>America/Adak "
    "America/Buenos_Aires>America/Argentina/Buenos_Aires "
    "America/Catamarca>America/Argentina/Catamarca America/Coral_Harbour>America/Atikokan "
    "America/Cordoba>America/Argentina/Cordoba America/Ensenada>America/Tijuana "
    "America/Fort_Wayne>America/Indiana/Indianapolis America/Godthab>America/Nuuk "
    "America/Indianapolis>America/Indiana/Indianapolis America/Jujuy>America/Argentina/Jujuy "
    "America/Knox_IN>America/Indiana/Knox America/Louisville>America/Kentucky/Louisville "
    "America/Mendoza>America/Argentina/Mendoza America/Montreal>America/Toronto "
    "America/Nipigon>America/Toronto America/Pangnirtung>America/Iqaluit "
    "America/Porto_Acre>America/Rio_Branco America/Rainy_River>America/Winnipeg "
    "America/Rosario>America/Argentina/Cordoba America/Santa_Isabel>America/Tijuana "
    "America/Shiprock>America/Denver America/Thunder_Bay>America/Toronto "
    "America/Virgin>America/St_Thomas America/Yellowknife>America/Edmonton "
    "Antarctica/South_Pole>Antarctica/McMurdo Asia/Ashkhabad>Asia/Ashgabat "
    "Asia/Calcutta>Asia/Kolkata Asia/Choibalsan>Asia/Ulaanbaatar Asia/Chongqing>Asia/Shanghai "
    "Asia/Chungking>Asia/Shanghai Asia/Dacca>Asia/Dhaka Asia/Harbin>Asia/Shanghai "
    "Asia/Istanbul>Europe/Istanbul Asia/Kashgar>Asia/Urumqi Asia/Katmandu>Asia/Kathmandu "
    "Asia/Macao>Asia/Macau Asia/Rangoon>Asia/Yangon Asia/Saigon>Asia/Ho_Chi_Minh "
    "Asia/Tel_Aviv>Asia/Jerusalem Asia/Thimbu>Asia/Thimphu Asia/Ujung_Pandang>Asia/Makassar "
    "Asia/Ulan_Bator>Asia/Ulaanbaatar Atlantic/Faeroe>Atlantic/Faroe "
    "Atlantic/Jan_Mayen>Europe/Oslo Australia/ACT>Australia/Sydney "
    "Australia/Canberra>Australia/Sydney Australia/Currie>Australia/Hobart "
    "Australia/LHI>Australia/Lord_Howe Australia/NSW>Australia/Sydney "
    "Australia/North>Australia/Darwin Australia/Queensland>Australia/Brisbane "
    "Australia/South>Australia/Adelaide Australia/Tasmania>Australia/Hobart "
    "Australia/Victoria>Australia/Melbourne Australia/West>Australia/Perth "
    "Australia/Yancowinna>Australia/Broken_Hill Brazil/Acre>America/Rio_Branco "
    "Brazil/DeNoronha>America/Noronha Brazil/East>America/Sao_Paulo Brazil/West>America/Manaus "
    "CST6CDT>America/Chicago Canada/Atlantic>America/Halifax Canada/Central>America/Winnipeg "
    "Canada/Eastern>America/Toronto Canada/Mountain>America/Edmonton "
    "Canada/Newfoundland>America/St_Johns Canada/Pacific>America/Vancouver "
    "Canada/Saskatchewan>America/Regina Canada/Yukon>America/Whitehorse "
    "Chile/Continental>America/Santiago Chile/EasterIsland>Pacific/Easter Cuba>America/Havana "
    "EST>America/Panama EST5EDT>America/New_York Egypt>Africa/Cairo Eire>Europe/Dublin "
    "Etc/GMT+0>Etc/GMT Etc/GMT-0>Etc/GMT Etc/GMT0>Etc/GMT Etc/Greenwich>Etc/GMT Etc/UCT>Etc/UTC "
    "Etc/Universal>Etc/UTC Etc/Zulu>Etc/UTC Europe/Belfast>Europe/London Europe/Kiev>Europe/Kyiv "
    "Europe/Nicosia>Asia/Nicosia Europe/Tiraspol>Europe/Chisinau Europe/Uzhgorod>Europe/Kyiv "
    "Europe/Zaporozhye>Europe/Kyiv GB>Europe/London GB-Eire>Europe/London GMT>Etc/GMT "
    "GMT+0>Etc/GMT GMT-0>Etc/GMT GMT0>Etc/GMT Greenwich>Etc/GMT HST>Pacific/Honolulu "
    "Hongkong>Asia/Hong_Kong Iceland>Atlantic/Reykjavik Iran>Asia/Tehran Israel>Asia/Jerusalem "
    "Jamaica>America/Jamaica Japan>Asia/Tokyo Kwajalein>Pacific/Kwajalein Libya>Africa/Tripoli "
    "MET>CET MST>America/Phoenix MST7MDT>America/Denver Mexico/BajaNorte>America/Tijuana "
    "Mexico/BajaSur>America/Mazatlan Mexico/General>America/Mexico_City NZ>Pacific/Auckland "
    "NZ-CHAT>Pacific/Chatham Navajo>America/Denver PRC>Asia/Shanghai PST8PDT>America/Los_Angeles "
    "Pacific/Enderbury>Pacific/Kanton Pacific/Johnston>Pacific/Honolulu "
    "Pacific/Ponape>Pacific/Pohnpei Pacific/Samoa>Pacific/Pago_Pago Pacific/Truk>Pacific/Chuuk "
    "Pacific/Yap>Pacific/Chuuk Poland>Europe/Warsaw Portugal>Europe/Lisbon ROC>Asia/Taipei "
    "ROK>Asia/Seoul Singapore>Asia/Singapore Turkey>Europe/Istanbul UCT>Etc/UTC "
    "US/Alaska>America/Anchorage US/Aleutian>America/Adak US/Arizona>America/Phoenix "
    "US/Central>America/Chicago US/East-Indiana>America/Indiana/Indianapolis "
    "US/Eastern>America/New_York US/Hawaii>Pacific/Honolulu "
    "US/Indiana-Starke>America/Indiana/Knox US/Michigan>America/Detroit "
    "US/Mountain>America/Denver US/Pacific>America/Los_Angeles US/Samoa>Pacific/Pago_Pago "
    "Universal>Etc/UTC W-SU>Europe/Moscow Zulu>Etc/UTC"
)

# Joda IDs whose offsets are those of another tz database zone, as ID>ZONE.
_RULES = (
    "CET>Europe/Brussels EET>Europe/Athens WET>Europe/Lisbon America/Kralendijk>America/Curacao "
    "America/Lower_Princes>America/Curacao America/Marigot>America/Port_of_Spain "
    "America/St_Barthelemy>America/Port_of_Spain Arctic/Longyearbyen>Europe/Oslo"
)


@cache
def _ids() -> dict[str, str]:
    ids = {
        f"{area}/{name}" if area else name: ""
        for area, names in _AREAS.items()
        for name in names.split()
    }
    for link in _LINKS.split():
        alias, _, target = link.partition(">")
        ids[alias] = target
    return {k: v or k for k, v in ids.items()}


@cache
def _rules() -> dict[str, str]:
    return dict(link.split(">") for link in _RULES.split())


def joda_zone(zone_id: str) -> tuple[str, str] | None:
    """For a tz database ID: the ID Joda's ``DateTimeZone.forID(zone_id).getID()`` gives (an
    alias gives its canonical ID) and the tz database zone that has its offsets; None when Joda
    does not know the ID."""
    canonical = _ids().get(zone_id)
    if canonical is None:
        return None
    return canonical, _rules().get(canonical, canonical)
