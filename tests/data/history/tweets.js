window.YTD.tweets.part0 = [
  {
    "tweet" : {
      "edit_info" : {
        "initial" : {
          "editTweetIds" : [ "1859000000000000001" ],
          "editableUntil" : "2026-11-20T09:05:00.000Z",
          "editsRemaining" : "5",
          "isEditEligible" : true
        }
      },
      "retweeted" : false,
      "source" : "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
      "entities" : {
        "hashtags" : [ { "text" : "launch", "indices" : [ "36", "43" ] } ],
        "symbols" : [ ],
        "user_mentions" : [ ],
        "urls" : [
          {
            "url" : "https://t.co/AbCdEf1234",
            "expanded_url" : "https://tidewater.dev/pricing",
            "display_url" : "tidewater.dev/pricing",
            "indices" : [ "44", "67" ]
          }
        ]
      },
      "display_text_range" : [ "0", "67" ],
      "favorite_count" : "61",
      "id_str" : "1859000000000000001",
      "truncated" : false,
      "retweet_count" : "9",
      "id" : "1859000000000000001",
      "created_at" : "Fri Nov 20 08:05:00 +0000 2026",
      "favorited" : false,
      "full_text" : "Sync &amp; merge, finally boring &gt; #launch https://t.co/AbCdEf1234",
      "lang" : "en"
    }
  },
  {
    "tweet" : {
      "retweeted" : false,
      "source" : "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
      "entities" : {
        "hashtags" : [ ],
        "symbols" : [ ],
        "user_mentions" : [ { "name" : "Someone", "screen_name" : "someone", "indices" : [ "3", "11" ], "id_str" : "42", "id" : "42" } ],
        "urls" : [ ]
      },
      "display_text_range" : [ "0", "40" ],
      "favorite_count" : "0",
      "id_str" : "1859000000000000002",
      "truncated" : false,
      "retweet_count" : "0",
      "id" : "1859000000000000002",
      "created_at" : "Fri Nov 20 10:00:00 +0000 2026",
      "favorited" : false,
      "full_text" : "RT @someone: offline-first is the future",
      "lang" : "en"
    }
  },
  {
    "tweet" : {
      "retweeted" : false,
      "source" : "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
      "entities" : {
        "hashtags" : [ ],
        "symbols" : [ ],
        "user_mentions" : [ { "name" : "Alice", "screen_name" : "alice", "indices" : [ "0", "6" ], "id_str" : "43", "id" : "43" } ],
        "urls" : [ ]
      },
      "display_text_range" : [ "7", "30" ],
      "favorite_count" : "2",
      "in_reply_to_status_id_str" : "1858000000000000000",
      "id_str" : "1859000000000000003",
      "in_reply_to_user_id" : "43",
      "truncated" : false,
      "retweet_count" : "0",
      "id" : "1859000000000000003",
      "in_reply_to_status_id" : "1858000000000000000",
      "created_at" : "Fri Nov 20 11:30:00 +0000 2026",
      "favorited" : false,
      "full_text" : "@alice thanks, fixed in 0.4!",
      "lang" : "en",
      "in_reply_to_screen_name" : "alice",
      "in_reply_to_user_id_str" : "43"
    }
  },
  {
    "tweet" : {
      "retweeted" : false,
      "source" : "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
      "entities" : {
        "hashtags" : [ ],
        "symbols" : [ ],
        "user_mentions" : [ ],
        "urls" : [ ],
        "media" : [
          {
            "expanded_url" : "https://twitter.com/tidewaterdev/status/1859000000000000004/photo/1",
            "indices" : [ "29", "52" ],
            "url" : "https://t.co/MeDiA98765",
            "media_url_https" : "https://pbs.twimg.com/media/abc.jpg",
            "id_str" : "1859000000000000099",
            "type" : "photo",
            "display_url" : "pic.twitter.com/MeDiA98765"
          }
        ]
      },
      "display_text_range" : [ "0", "28" ],
      "favorite_count" : "14",
      "in_reply_to_status_id_str" : "1859000000000000001",
      "id_str" : "1859000000000000004",
      "in_reply_to_user_id" : "7001",
      "truncated" : false,
      "retweet_count" : "1",
      "id" : "1859000000000000004",
      "created_at" : "Fri Nov 20 12:15:30 +0000 2026",
      "favorited" : false,
      "full_text" : "The dashboard, in one photo: https://t.co/MeDiA98765",
      "lang" : "en",
      "in_reply_to_screen_name" : "TidewaterDev",
      "in_reply_to_user_id_str" : "7001"
    }
  }
]
